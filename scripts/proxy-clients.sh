#!/usr/bin/env bash
# The official openai, anthropic and ollama Python SDKs, from PyPI, in a virtualenv of their own: the
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
ollama_version=0.6.3

case "${1:-}" in
install)
    if ! "$venv/bin/python" -c "
import importlib.metadata as m, sys
wanted = {'openai': '$openai_version', 'anthropic': '$anthropic_version', 'ollama': '$ollama_version'}
sys.exit(0 if all(m.version(name) == version for name, version in wanted.items()) else 1)
" 2>/dev/null; then
        python3 -m venv "$venv"
        "$venv/bin/pip" install -q "openai==$openai_version" "anthropic==$anthropic_version" \
            "ollama==$ollama_version"
    fi
    echo "proxy-clients: openai $openai_version, anthropic $anthropic_version and ollama $ollama_version in $venv"
    ;;
python)
    echo "$venv/bin/python"
    ;;
*)
    echo "usage: proxy-clients.sh install|python" >&2
    exit 2
    ;;
esac
