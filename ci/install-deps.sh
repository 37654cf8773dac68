#!/usr/bin/env bash
# Installs everything onnxgate needs to build, test and run on Debian 12. Idempotent: packages
# already present are left alone and an installed ONNX of the pinned version is not rebuilt, so a
# second run does nothing but check.
#
# Usage: ci/install-deps.sh [--with ort-gpu]
#
# The Python adapters run in project-local virtual environments under .venv/ (or under
# $ONNXGATE_VENV_ROOT when set), each made from wheels pinned by version and SHA-256 in
# ci/requirements/:
#   .venv/ort           ONNX Runtime (CPU), ci/requirements/ort-adapter.txt
#   .venv/ort-openvino  ONNX Runtime with the OpenVINO EP, ci/requirements/ort-openvino.txt
#   .venv/openvino      OpenVINO's own runtime, ci/requirements/openvino.txt
#   .venv/ort-gpu       ONNX Runtime's GPU package, ci/requirements/ort-gpu.txt; only with
#                       --with ort-gpu (about 260 MB; needs CUDA to be of use)
#
# Debian 12 packages come from apt. ONNX's C++ library (1.23.2; Debian's libonnx is 1.12) is built
# from ONNX's official source release, fetched with pip, pinned by version and SHA-256 in
# ci/requirements/, into $ONNXGATE_ONNX_PREFIX (default /opt/onnxgate/onnx-1.23.2), which the
# top-level CMakeLists.txt searches by default.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
onnx_version=1.23.2
onnx_prefix=${ONNXGATE_ONNX_PREFIX:-/opt/onnxgate/onnx-$onnx_version}
venv_root=${ONNXGATE_VENV_ROOT:-$root/.venv}

with_ort_gpu=0
while (($#)); do
  case $1 in
    --with)
      [[ ${2:-} == ort-gpu ]] ||
        { echo "install-deps.sh: --with takes 'ort-gpu', not '${2:-}'" >&2; exit 2; }
      with_ort_gpu=1
      shift 2
      ;;
    *)
      echo "install-deps.sh: unknown argument '$1' (usage: ci/install-deps.sh [--with ort-gpu])" >&2
      exit 2
      ;;
  esac
done

packages=(
  cmake g++ make pkg-config
  libprotobuf-dev protobuf-compiler python3 python3-venv python3-pip
  libgtest-dev libgmock-dev libbenchmark-dev
  nlohmann-json3-dev libcli11-dev libhdf5-dev hdf5-tools libeigen3-dev libdnnl-dev
  opencl-headers ocl-icd-opencl-dev pocl-opencl-icd
  libspdlog-dev libfmt-dev libssl-dev libxml2-utils locales jq chromium
  libjpeg62-turbo-dev libpng-dev libwebp-dev libopenjp2-7-dev libre2-dev libzip-dev
  clang clang-format libclang-rt-14-dev llvm
  libsqlite3-dev libpq-dev postgresql
)

if [[ $(id -u) -ne 0 ]]; then
  echo "install-deps.sh: run as root (it calls apt-get)" >&2
  exit 2
fi

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if ((${#missing[@]})); then
  echo "install-deps.sh: installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}"
else
  echo "install-deps.sh: all ${#packages[@]} packages present"
fi

# StringNormalizer cases need the en_US.UTF-8 locale.
if ! locale -a 2>/dev/null | grep -qi '^en_US\.utf-\?8$'; then
  sed -i 's/^# *\(en_US.UTF-8 UTF-8\)/\1/' /etc/locale.gen
  locale-gen >/dev/null
fi

# make_venv <name> <requirements file> <python import check>: makes the project-local virtual
# environment $venv_root/<name> from pinned, hash-verified wheels (no dependency resolution: the
# requirements file lists every wheel). The stamp is the requirements file's name and hash: a
# changed pin rebuilds it; an unchanged one is left alone.
make_venv() {
  local name=$1 requirements=$2 check=$3
  local venv="$venv_root/$name"
  local stamp_want
  stamp_want="$(basename "$requirements" .txt) $(sha256sum "$requirements" | cut -d' ' -f1)"
  if [[ -f $venv/onnxgate-stamp && $(cat "$venv/onnxgate-stamp") == "$stamp_want" ]]; then
    echo "install-deps.sh: environment $name present in $venv"
    return
  fi
  echo "install-deps.sh: creating environment $name in $venv"
  local started=$SECONDS
  rm -rf "$venv"
  python3 -m venv "$venv"
  "$venv/bin/pip" install --no-input --disable-pip-version-check --quiet --require-hashes \
    --only-binary :all: --no-deps -r "$requirements"
  "$venv/bin/python" -c "$check" ||
    { echo "install-deps.sh: environment $name in $venv does not import ($check)" >&2; exit 1; }
  echo "$stamp_want" >"$venv/onnxgate-stamp"
  echo "install-deps.sh: environment $name made in $((SECONDS - started)) s, $(du -sh "$venv" | cut -f1)"
}

requirements="$root/ci/requirements"
make_venv ort "$requirements/ort-adapter.txt" "import onnxruntime, numpy, onnx, h5py"
make_venv ort-openvino "$requirements/ort-openvino.txt" "import onnxruntime, numpy, onnx, h5py"
make_venv openvino "$requirements/openvino.txt" "import openvino, numpy, onnx, h5py"
if ((with_ort_gpu)); then
  make_venv ort-gpu "$requirements/ort-gpu.txt" "import onnxruntime, numpy, onnx, h5py"
fi

# ONNX 1.23.2's C++ library. The stamp names the version and the source's hash; anything else in
# the prefix is rebuilt from scratch.
onnx_sha256=$(sed -n 's/.*--hash=sha256:\([0-9a-f]*\).*/\1/p' "$root/ci/requirements/onnx-source.txt")
stamp="$onnx_prefix/onnxgate-stamp"
if [[ -f $stamp && $(cat "$stamp") == "onnx $onnx_version $onnx_sha256" ]]; then
  echo "install-deps.sh: ONNX $onnx_version present in $onnx_prefix"
  exit 0
fi

work=$(mktemp -d /tmp/onnxgate-onnx-build.XXXXXX)
log="$work/build.log"
step() {  # step <name> <command...>: runs one step, logging; on failure names it and the log
  local name=$1
  shift
  echo "install-deps.sh: ONNX $onnx_version: $name"
  if ! "$@" >>"$log" 2>&1; then
    echo "install-deps.sh: ONNX $onnx_version: step '$name' failed; log: $log" >&2
    tail -n 20 "$log" >&2
    exit 1
  fi
}
started=$SECONDS
tools="$work/tools"
step "create build-tools venv" python3 -m venv "$tools"
step "install pinned build tools" "$tools/bin/pip" install --no-input --disable-pip-version-check \
  --require-hashes --only-binary :all: -r "$root/ci/requirements/onnx-build-tools.txt"
export PATH="$tools/bin:$PATH"
step "download pinned source release" "$tools/bin/pip" download --no-input \
  --disable-pip-version-check --no-deps --no-binary onnx --no-build-isolation --require-hashes \
  -r "$root/ci/requirements/onnx-source.txt" -d "$work/dist"
step "verify SHA-256" bash -c "echo '$onnx_sha256  $work/dist/onnx-$onnx_version.tar.gz' | sha256sum -c -"
step "unpack" tar -xzf "$work/dist/onnx-$onnx_version.tar.gz" -C "$work"
step "configure" "$tools/bin/cmake" -S "$work/onnx-$onnx_version" -B "$work/build" \
  -DCMAKE_BUILD_TYPE=Release -DCMAKE_INSTALL_PREFIX="$onnx_prefix" \
  -DCMAKE_POSITION_INDEPENDENT_CODE=ON -DBUILD_SHARED_LIBS=OFF \
  -DONNX_BUILD_PYTHON=OFF -DONNX_BUILD_TESTS=OFF -DONNX_ML=ON \
  -DONNX_USE_PROTOBUF_SHARED_LIBS=ON -DONNX_GEN_PB_TYPE_STUBS=OFF
step "build ($(nproc) jobs)" "$tools/bin/cmake" --build "$work/build" -j "$(nproc)"
rm -rf "$onnx_prefix"
step "install into $onnx_prefix" "$tools/bin/cmake" --install "$work/build"
echo "onnx $onnx_version $onnx_sha256" >"$stamp"
echo "install-deps.sh: ONNX $onnx_version built into $onnx_prefix in $((SECONDS - started)) s"
rm -rf "$work"
