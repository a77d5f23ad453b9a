# tests/lib/vl-build.sh - build a Verilator model whose runtime is compiled
# once, sourced by the test scripts (make test builds some 40 small models
# outside tb/lockstep.mk; Verilator's runtime, verilated.cpp and
# verilated_threads.cpp, is about 7 CPU-seconds of each).
#
#   vl_build MDIR [MAKE_VARIABLES...] -- VERILATOR_ARGUMENTS...
#
# runs `verilator VERILATOR_ARGUMENTS --Mdir MDIR` (which must not contain
# --build or --binary: use --cc --exe [--main --timing]), then builds the
# executable in MDIR with make MAKE_VARIABLES (e.g. CXX=clang++) and -j2,
# the model as one translation unit (VM_PARALLEL_BUILDS=0: Verilator splits
# it into some 30 files, each of which parses Verilator's headers again;
# one file compiles in a sixth of their CPU time and runs as fast).
# The runtime objects come from $VL_RUNTIME_DIR/KEY (default
# build/vl-runtime under the project), KEY the hash of Verilator's version
# and of the exact commands that compile them: models with other flags
# (--timing, tracing) get their own. The runtime is compiled without the
# model's -CFLAGS (include paths and defines of the testbench's C++, which
# differ from build to build and do not concern Verilator's runtime). The
# first build of a KEY compiles them and publishes them with an atomic
# rename, so scripts that run side by side may race without harm.
# Output: Verilator's and make's, on stdout/stderr; status non-zero when any
# step fails.
# shellcheck shell=bash

vl_build() {
    local mdir=$1
    shift
    local make_vars=()
    while [ $# -gt 0 ] && [ "$1" != -- ]; do
        make_vars+=("$1")
        shift
    done
    [ "${1:-}" = -- ] && shift
    local project
    project=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
    local runtime_root=${VL_RUNTIME_DIR:-$project/build/vl-runtime}
    verilator "$@" --Mdir "$mdir" || return 1
    local classes=("$mdir"/*_classes.mk)
    [ -f "${classes[0]}" ] || { echo "vl_build: no *_classes.mk in $mdir" >&2; return 1; }
    local mk
    mk=$(basename "${classes[0]}" _classes.mk).mk
    # (a make of its own: not a job of the caller's make, whose jobserver the
    # script does not inherit)
    local mk_cmd=(env MAKEFLAGS= MAKELEVEL= make --no-print-directory -C "$mdir" -f "$mk"
        "${make_vars[@]}")
    local listed globals
    # shellcheck disable=SC2016 # (make expands it)
    listed=$("${mk_cmd[@]}" -s --eval 'vl-build-globals: ; @echo $(VK_GLOBAL_OBJS)' \
        vl-build-globals) || return 1
    read -ra globals <<<"$listed"
    local key
    key=$({ verilator --version; "${mk_cmd[@]}" VM_USER_CFLAGS= -n -B "${globals[@]}"; } |
        md5sum | cut -c1-16)
    local runtime=$runtime_root/$key
    if [ ! -f "$runtime/complete" ]; then
        "${mk_cmd[@]}" VM_USER_CFLAGS= -j2 "${globals[@]}" || return 1
        mkdir -p "$runtime_root" || return 1
        local staging
        staging=$(mktemp -d "$runtime_root/.staging.XXXXXX") || return 1
        (cd "$mdir" && cp "${globals[@]}" "$staging/") && touch "$staging/complete" || return 1
        # (another script may have published the same KEY meanwhile: keep its)
        mv -T "$staging" "$runtime" 2>/dev/null || rm -rf "$staging"
    fi
    # (the runtime's objects are linked after the model's libraries: the
    # threads' libraries, -latomic for clang++'s code, go after them again)
    local objects=()
    local object
    for object in "${globals[@]}"; do objects+=("$runtime/$object"); done
    "${mk_cmd[@]}" -j2 VM_PARALLEL_BUILDS=0 VK_GLOBAL_OBJS= \
        LIBS="${objects[*]} \$(CFG_LDLIBS_THREADS)"
}
