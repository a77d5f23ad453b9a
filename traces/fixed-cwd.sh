# fixed-cwd.sh - sourced: a working directory of fixed path length for
# valgrind runs of the traced programs.
#
# Why: valgrind copies the client's working directory (its absolute path,
# as getcwd returns it) onto the client's initial stack. The length of that
# path therefore moves every stack address the program touches, and with
# them a few start-up references: the same program traced in /tmp/a and in
# /tmp/abcdefghijklmnopq made different traces (qsort's first stack load at
# feffde30 and at feffde20; 769 927 against 769 915 references), and the
# tuner's results on them moved by about a point. A symbolic link does not
# help (getcwd resolves it); the directory itself must have a path of the
# same length wherever the trace directory lies.
#
# fixed_cwd_make TRACEDIR CWD PROGRAM: make a fresh directory
# /tmp/stc-cwd.XXXXXXXXXX (always 25 characters: mktemp with an explicit
# /tmp, not $TMPDIR, whose length varies) that stands for TRACEDIR: CWD
# (relative to TRACEDIR) and the directories on the way to PROGRAM
# (relative to CWD) are real directories, PROGRAM is a copy, and every
# other entry is a symbolic link to TRACEDIR's. Real, because the kernel
# resolves links: getcwd gives the working directory's real path, and
# /proc/self/exe the program's, which glibc reads at start-up
# (_dl_get_origin: a static program copies it to its heap, and its length
# moved the heap's references; seen on crc.i386). Commands name files by
# relative paths, so they find TRACEDIR's other files through the links;
# output files written into CWD land in the directory made here. Prints
# the directory; the caller removes it (fixed_cwd_remove) when the run is
# over. Two directories made this way differ only in their random
# characters, which no traced program reads: the traces made in them are
# the same bytes (tests/traces-check.sh).
fixed_cwd_make() {
    local tracedir=$1 cwd=$2 program=$3 root rel
    # The program's path inside TRACEDIR, links not followed (i386/ may be one).
    rel=$(realpath -m -s --relative-to="$tracedir" "$tracedir/$cwd/$program") || return 1
    case $rel in ../* | /*) echo "fixed_cwd_make: $program (from $cwd) lies outside $tracedir" >&2; return 1 ;; esac
    root=$(mktemp -d /tmp/stc-cwd.XXXXXXXXXX) || return 1
    if ! fixed_cwd_link_entries "$tracedir" "$root" . ||
        ! fixed_cwd_real_dirs "$tracedir" "$root" "$cwd" ||
        ! fixed_cwd_real_dirs "$tracedir" "$root" "$(dirname "$rel")" ||
        ! rm -f "$root/$rel" || ! cp -p "$tracedir/$rel" "$root/$rel"; then
        fixed_cwd_remove "$root"
        return 1
    fi
    echo "$root"
}

# fixed_cwd_link_entries TRACEDIR ROOT DIR: a link in ROOT/DIR to each entry
# of TRACEDIR/DIR that ROOT/DIR does not hold yet.
fixed_cwd_link_entries() {
    local entry
    for entry in "$1/$3"/*; do
        [ -e "$entry" ] || [ -L "$entry" ] || continue
        [ -e "$2/$3/${entry##*/}" ] || [ -L "$2/$3/${entry##*/}" ] || ln -s "$entry" "$2/$3/${entry##*/}" || return 1
    done
}

# fixed_cwd_real_dirs TRACEDIR ROOT PATH: make each directory on PATH
# (relative) a real directory in ROOT, its entries linked to TRACEDIR's.
fixed_cwd_real_dirs() {
    local tracedir=$1 root=$2 part dir=.
    local -a parts
    IFS=/ read -r -a parts <<<"$3"
    for part in "${parts[@]}"; do
        case $part in '' | .) continue ;; ..) echo "fixed_cwd_make: '..' in $3" >&2; return 1 ;; esac
        dir=$dir/$part
        if [ -L "$root/$dir" ]; then rm -f "$root/$dir"; fi
        mkdir -p "$root/$dir" || return 1
        if [ -d "$tracedir/$dir" ]; then fixed_cwd_link_entries "$tracedir" "$root" "$dir" || return 1; fi
    done
}

# fixed_cwd_remove DIR: remove a directory made by fixed_cwd_make (its links
# only, never what they point to).
fixed_cwd_remove() {
    case $1 in
    /tmp/stc-cwd.??????????) rm -rf -- "$1" ;;
    *) echo "fixed_cwd_remove: refusing to remove '$1'" >&2; return 1 ;;
    esac
}
