# fmt.jq - number formatting for the page (jq -L scripts/paper; include "fmt";).
# jq prints doubles with up to 17 digits; the page shows fixed decimals, the
# same bytes on every run.

# fixed($d): the number with exactly $d decimals, rounded half away from
# zero; null gives "-".
def fixed($d):
  if . == null then "-"
  else
    (pow(10; $d)) as $s
    | (if . < 0 then "-" else "" end) as $sign
    | ((if . < 0 then -. else . end) * $s | round) as $n
    | ($n / $s | floor) as $int
    | ($n - $int * $s) as $frac
    | (if $d == 0 then "\($sign)\($int)"
       else "\($sign)\($int).\(($frac + $s) | tostring | .[1:])" end)
    | if test("^-0(\\.0*)?$") then ltrimstr("-") else . end
  end;

# sci: a number as m.me-XX (two significant digits), for ratios spanning
# many decades; 0 gives "0".
def sci:
  if . == 0 then "0"
  elif . < 0 then "-" + (-. | sci)
  else
    (log10 | floor) as $e
    | (. / pow(10; $e)) as $m
    | (if ($m | fixed(1)) == "10.0" then [1, $e + 1] else [$m, $e] end) as [$mm, $ee]
    | "\($mm | fixed(1))e\(if $ee < 0 then "-" else "+" end)\((if $ee < 0 then -$ee else $ee end) | tostring | if length < 2 then "0" + . else . end)"
  end;

# mean: arithmetic mean of an array.
def mean: add / length;

# prog: program name of a tune row ("fir.i386" -> "fir").
def prog: sub("\\.(i386|amd64)$"; "");

# median: the middle value of an array (the mean of the two middle ones).
def median: sort | if length % 2 == 1 then .[length / 2 | floor] else (.[length / 2 - 1] + .[length / 2]) / 2 end;
