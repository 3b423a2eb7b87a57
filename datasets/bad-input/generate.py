#!/usr/bin/env python3
"""Writes sudoku-bad-input.suite (see README.md). Run from this folder: python3 generate.py"""

L = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"
S = "534678912672195348198342567859761423426853791713924856961537284287419635345286179"
# A 16x16 pattern grid with 45% of its cells emptied (many solutions).
P16 = ("......78...CDEF.567..A.C.EF.12..9.B.D....234567.D.FG.234.6.8..B.2.456.8...CDE.G...8.AB..E.G1234"
       "5..CD.FG1..456.89.F....456.89...D3.56789...DEFG..7.....D.FG..3...BCD.F...3...7.....123..6...A..."
       "E....89A.C..FG12389ABCD..G.23456.CD.FG1...5..89.....3.56..9..CDEF")
# L with r9c7 set to 6: no clash and every empty cell keeps a candidate, but no solution (naive DFS: 4622 nodes).
UNSAT = L[:78] + "6" + L[79:]
# L without its r3c8 given: more than one solution (the count stops at 2).
MULTI = L[:25] + "." + L[26:]

out = bytearray()


def add(s):
    out.extend(s.encode("utf-8") if isinstance(s, str) else s)


add("\ufeff" + L + " # expect solved 1: a byte-order mark before the first line\n")
add("""# Bad-input suite for `sudoku solve` and the bench runner: every line that holds a puzzle (or what should have
# been one) ends with `# expect STATUS [COUNT][: MESSAGE FRAGMENT]`, the outcome `sudoku solve --count` must give
# it. Lines starting with `#` (like this one) and blank lines are not puzzles. See README.md beside this file.

""")
add(L + " # expect solved 1: the reference puzzle\n")
add(L + " # expect solved 1: a CRLF line ending\r\n")
add("\t  " + L + "\t# expect solved 1: leading tab and spaces\n")
add(L.replace(".", "0") + ",rating 3.5 # expect solved 1: zeros for blanks and a trailing field\n")
add("quizzes,solutions # expect invalid: a CSV header in the middle of the file\n")
add(L[:-1] + " # expect invalid: wrong length: 80 cells\n")
add(L + "1 # expect invalid: wrong length: 82 cells\n")
add(L + L + " # expect invalid: glued\n")
add(L[:40] + "x" + L[41:] + " # expect invalid: unexpected character 'x' in cell r5c5\n")
add(L[:80] + "é # expect invalid: unexpected character 'é' in cell r9c9\n")
add(L[:10] + "５" + L[11:] + " # expect invalid: unexpected character '５'\n")
add(L[:5] + "\ufeff" + L[6:] + " # expect invalid: unexpected character '\\u{feff}'\n")
add("55" + L[2:] + " # expect invalid: givens clash: two 5s in row 1\n")
add(L[:72] + "5" + L[73:] + " # expect invalid: givens clash: two 5s in column 1\n")
add("." * 81 + " # expect solved 2: the empty grid\n")
add("." * 16 + " # expect solved 2: the empty 4x4 grid\n")
add("1234341221434321 # expect solved 1: a full valid 4x4 grid\n")
add("1234341221434312 # expect invalid: givens clash\n")
add(UNSAT + " # expect unsatisfiable: no clash and every empty cell has a candidate, yet no solution\n")
add(".12345678" + "9" + "." * 71 + " # expect unsatisfiable: r1c1 has no candidate (row holds 1-8, box holds 9)\n")
add(MULTI + " # expect solved 2: one given short of unique\n")
add(P16 + " # expect solved 2: a 16x16 puzzle\n")
add(P16[:100] + "H" + P16[101:] + " # expect invalid: unexpected character 'H' in cell r7c5 (a 16x16 board uses 1-9, A-G, or .)\n")
add(P16[:30] + "0" + P16[31:] + " # expect invalid: unexpected character '0' in cell r2c15\n")
add(P16[:-1] + " # expect invalid: wrong length: 255 cells\n")
add(L + "," + S[:-1] + "x # expect invalid: unexpected character 'x' in solution cell r9c9\n")
add("1 2 | . . # expect invalid: incomplete grid: 2 of 4 rows\n3 4 | . .\n")
add(L + " # expect solved 1: the puzzle right after an incomplete grid is still read\n")
add(b"\x00\x01\x02\xff\xfe\xfd\x80\x81garbage\xc3\x28\xa0\xa1 # expect invalid: invalid UTF-8\n")
add(b"\x7fELF\x02\x01\x01\x00\x00\x00\x00\x00\x00\x00\x00\x00\x02\x00\x3e\x00 # expect invalid: wrong length\n")
add("1" * 70000 + " # expect invalid: line longer than 65536 bytes\n")
add("123456789" * 600 + " # expect invalid: wrong length: 5400 cells\n")
add(L + " # expect solved 1: the last line, after every bad one\n")

with open("sudoku-bad-input.suite", "wb") as f:
    f.write(out)
