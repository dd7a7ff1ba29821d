#!/usr/bin/env bash
# The official openai and anthropic Python SDKs, from PyPI, in a virtualenv of their own: the
# clients nobody here wrote that the proxy tests (Tests/ProxyTests) drive through the proxy.
#
#   scripts/proxy-clients.sh install   # make the virtualenv and install the SDKs (once)
#   scripts/proxy-clients.sh python    # print the virtualenv's python
#
# PROXY_CLIENTS_VENV (default ~/.cache/sessiontrace/proxy-clients-venv) is the virtualenv.
set -euo pipefail
venv=${PROXY_CLIENTS_VENV:-$HOME/.cache/sessiontrace/proxy-clients-venv}
openai_version=3.57.0
anthropic_version=2.15.0

case "${1:-}" in
install)
    if ! "$venv/bin/python" -c "
import openai, anthropic, sys
sys.exit(0 if (openai.__version__, anthropic.__version__) == ('$openai_version', '$anthropic_version') else 1)
" 2>/dev/null; then
        python3 -m venv "$venv"
        "$venv/bin/pip" install -q "openai==$openai_version" "anthropic==$anthropic_version"
    fi
    echo "proxy-clients: openai $openai_version and anthropic $anthropic_version in $venv"
    ;;
python)
    echo "$venv/bin/python"
    ;;
*)
    echo "usage: proxy-clients.sh install|python" >&2
    exit 2
    ;;
esac
