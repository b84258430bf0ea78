#!/bin/sh
# demo.sh: install what is missing, build Tide, and run the demo: four
# ranks that each print their rank, the size and the host.
set -e
top=$(cd "$(dirname "$0")/.." && pwd)
sh "$top/tools/deps.sh"
sh "$top/tools/build.sh"
exec "$top/_build/bin/mpiexec" -n 4 "$top/_build/examples/hello"
