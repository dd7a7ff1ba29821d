# Sourced by the benchmarks. Run from the repository's root.
#
#   release_binary PRODUCT [VARIABLE]
#
# Prints the path of PRODUCT's release binary: the one the environment variable VARIABLE names when
# it is set, to measure another build, else this checkout's, built first.
release_binary() {
    local product=$1 variable=${2:-}
    if [ -n "$variable" ] && [ -n "${!variable:-}" ]; then
        echo "${!variable}"
        return
    fi
    swift build -c release --product "$product" >/dev/null || return
    echo "$(swift build -c release --show-bin-path)/$product"
}
