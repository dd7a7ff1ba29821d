#!/usr/bin/env bash
# Builds trace-report in release mode and installs it under PREFIX (default /usr/local; use
# ~/.local to install without root): the program in PREFIX/bin, its man page in
# PREFIX/share/man/man1, and completions for bash, zsh and fish under PREFIX/share. The man page
# and the completions are made by the program itself from its help (`trace-report man`,
# `trace-report completions SHELL`). The Swift runtime is linked in, so the installed program runs
# without the toolchain; it needs libsqlite3 and libbabeltrace2 (scripts/install-deps.sh installs
# them), and no model, LTTng daemon or root to read stores.
set -euo pipefail
cd "$(dirname "$0")/.."

prefix="${1:-/usr/local}"
case "$prefix" in
    /*) ;;
    *) prefix="$PWD/$prefix" ;;
esac

swift build -c release --static-swift-stdlib --product trace-report
binary="$(swift build -c release --static-swift-stdlib --show-bin-path)/trace-report"

install -d "$prefix/bin" "$prefix/share/man/man1" "$prefix/share/bash-completion/completions" \
    "$prefix/share/zsh/site-functions" "$prefix/share/fish/vendor_completions.d"
install -m 0755 "$binary" "$prefix/bin/trace-report"
"$prefix/bin/trace-report" man >"$prefix/share/man/man1/trace-report.1"
"$prefix/bin/trace-report" completions bash >"$prefix/share/bash-completion/completions/trace-report"
"$prefix/bin/trace-report" completions zsh >"$prefix/share/zsh/site-functions/_trace-report"
"$prefix/bin/trace-report" completions fish >"$prefix/share/fish/vendor_completions.d/trace-report.fish"
chmod 0644 "$prefix/share/man/man1/trace-report.1" "$prefix/share/bash-completion/completions/trace-report" \
    "$prefix/share/zsh/site-functions/_trace-report" "$prefix/share/fish/vendor_completions.d/trace-report.fish"

echo "installed $("$prefix/bin/trace-report" --version) in $prefix"
case ":$PATH:" in
    *":$prefix/bin:"*) ;;
    *) echo "add $prefix/bin to PATH to run trace-report by name" ;;
esac
