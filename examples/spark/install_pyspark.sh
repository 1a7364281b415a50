#!/usr/bin/env bash
# Sets up pyspark in a virtual environment without building it:
#
#   examples/spark/install_pyspark.sh [VENV]
#
# VENV defaults to $SPARK_VENV, else ~/.cache/toklab/spark (where tests/spark.rs and
# run_local.sh look). `pip install pyspark` builds PyPI's 450 MB source package into a wheel
# and unpacks it again (9.4 minutes on a 2-core machine); this downloads the same package and
# runs Spark from the unpacked folder: its `deps` folder is a complete SPARK_HOME (jars,
# launch scripts) once `python/lib` points at the package's pyspark.zip and py4j zip, which
# the executors' Python workers import. The driver's Python finds pyspark and py4j through a
# .pth file. Needs python3 with venv and pip, and Java 17 or later to run.
set -euo pipefail
venv=${1:-${SPARK_VENV:-$HOME/.cache/toklab/spark}}
version=${PYSPARK_VERSION:-4.3.0}

if [ -x "$venv/bin/spark-submit" ]; then
  exit 0
fi
python3 -m venv "$venv"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$venv/bin/pip" download --quiet --no-deps --no-binary :all: "pyspark==$version" -d "$work"
home=$venv/spark
rm -rf "$home"
mkdir -p "$home"
tar xzf "$work/pyspark-$version.tar.gz" -C "$home" --strip-components=1
py4j=$(ls "$home"/lib/py4j-*-src.zip)
mkdir -p "$home/deps/python"
ln -s ../../lib "$home/deps/python/lib"
site=$("$venv/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')
printf '%s\n%s\n' "$home" "$py4j" >"$site/pyspark-in-place.pth"
cat >"$venv/bin/spark-submit" <<EOF
#!/bin/sh
# spark-submit of the pyspark unpacked in $home (install_pyspark.sh).
export SPARK_HOME='$home/deps'
exec "\$SPARK_HOME/bin/spark-submit" "\$@"
EOF
chmod +x "$venv/bin/spark-submit"
"$venv/bin/python" -c 'import pyspark, py4j; print("pyspark", pyspark.__version__, "in", pyspark.__file__)'
