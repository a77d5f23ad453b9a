# md2html.awk - the page's Markdown (index.md) as HTML (index.html). Only
# what the section scripts write: headings, paragraphs, "- " lists, pipe
# tables (alignment from the separator row), fenced code, and inline code,
# **bold**, *italic*, links and images. No converter is installed on a
# plain Debian machine, and this keeps both forms from one source.

function esc(s) {
    gsub(/&/, "\\&amp;", s)
    gsub(/</, "\\&lt;", s)
    gsub(/>/, "\\&gt;", s)
    return s
}

# wrap(s, re, pre, post, skip): replace every match of re (delimiters of
# length skip on each side) by pre CONTENT post.
function wrap(s, re, pre, post, skip,    out, inner) {
    out = ""
    while (match(s, re)) {
        inner = substr(s, RSTART + skip, RLENGTH - 2 * skip)
        out = out substr(s, 1, RSTART - 1) pre inner post
        s = substr(s, RSTART + RLENGTH)
    }
    return out s
}

# links and images: [text](url), ![alt](src)
function links(s,    out, m, text, url, bang) {
    out = ""
    while (match(s, /!?\[[^]]*\]\([^)]*\)/)) {
        m = substr(s, RSTART, RLENGTH)
        bang = substr(m, 1, 1) == "!"
        if (bang) m = substr(m, 2)
        text = m
        sub(/\]\(.*$/, "", text)
        text = substr(text, 2)
        url = m
        sub(/^[^]]*\]\(/, "", url)
        url = substr(url, 1, length(url) - 1)
        if (bang)
            out = out substr(s, 1, RSTART - 1) "<img src=\"" url "\" alt=\"" text "\">"
        else
            out = out substr(s, 1, RSTART - 1) "<a href=\"" url "\">" text "</a>"
        s = substr(s, RSTART + RLENGTH)
    }
    return out s
}

function styled(s) {
    s = links(esc(s))
    s = wrap(s, "\\*\\*[^*]+\\*\\*", "<strong>", "</strong>", 2)
    s = wrap(s, "\\*[^* ][^*]*\\*", "<em>", "</em>", 1)
    return s
}

# inline: code spans (between backticks) are only escaped.
function inline(s,    n, parts, i, out) {
    n = split(s, parts, "`")
    out = ""
    for (i = 1; i <= n; i++)
        out = out (i % 2 == 0 ? "<code>" esc(parts[i]) "</code>" : styled(parts[i]))
    return out
}

function cells(line, arr) {
    sub(/^[ ]*\|/, "", line)
    sub(/\|[ ]*$/, "", line)
    return split(line, arr, "|")
}

function close_blocks() {
    if (para) { print "</p>"; para = 0 }
    if (list) { print "</ul>"; list = 0 }
    if (table) { print "</tbody></table>"; table = 0 }
}

function slug(s) {
    s = tolower(s)
    gsub(/[^a-z0-9]+/, "-", s)
    gsub(/^-|-$/, "", s)
    return s
}

BEGIN {
    print "<!DOCTYPE html>"
    print "<html lang=\"en\"><head><meta charset=\"utf-8\">"
    print "<title>stc against the paper</title>"
    print "<style>"
    print "body{font-family:sans-serif;max-width:72em;margin:2em auto;padding:0 1em;line-height:1.45}"
    print "table{border-collapse:collapse;margin:1em 0;font-size:90%}"
    print "th,td{border:1px solid #bbb;padding:.2em .5em;vertical-align:top}"
    print "th{background:#eee}"
    print "pre{background:#f6f6f6;padding:.6em;overflow-x:auto;font-size:85%}"
    print "img{max-width:100%;border:1px solid #ddd}"
    print "code{background:#f3f3f3}"
    print "</style></head><body>"
}

# fenced code
/^```/ {
    if (code) { print "</code></pre>"; code = 0 } else { close_blocks(); printf "<pre><code>"; code = 1; first = 1 }
    next
}
code { printf "%s%s", (first ? "" : "\n"), esc($0); first = 0; next }

/^[ ]*$/ { close_blocks(); next }

/^#+ / {
    close_blocks()
    level = index($0, " ") - 1
    text = substr($0, level + 2)
    printf "<h%d id=\"%s\">%s</h%d>\n", level, slug(text), inline(text), level
    next
}

/^\|/ {
    if (!table) {
        close_blocks()
        n = cells($0, head)
        table = 1
        header_pending = 1
        next
    }
    if (header_pending) {
        # the separator row: alignment of each column
        n = cells($0, sep)
        print "<table><thead><tr>"
        for (i = 1; i <= n; i++) {
            align[i] = (sep[i] ~ /:[ ]*$/) ? " style=\"text-align:right\"" : ""
            t = head[i]; gsub(/^ +| +$/, "", t)
            printf "<th%s>%s</th>", align[i], inline(t)
        }
        print "</tr></thead><tbody>"
        header_pending = 0
        next
    }
    n = cells($0, row)
    printf "<tr>"
    for (i = 1; i <= n; i++) {
        t = row[i]; gsub(/^ +| +$/, "", t)
        printf "<td%s>%s</td>", align[i], inline(t)
    }
    print "</tr>"
    next
}

/^- / {
    if (!list) { close_blocks(); print "<ul>"; list = 1 }
    print "<li>" inline(substr($0, 3)) "</li>"
    next
}

{
    if (!para) { close_blocks(); printf "<p>"; para = 1 } else printf "\n"
    printf "%s", inline($0)
}

END {
    if (code) print "</code></pre>"
    close_blocks()
    print "</body></html>"
}
