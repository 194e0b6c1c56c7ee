# tests/readme-blocks.awk: the command lines of a Markdown file's indented
# code blocks (four spaces, after a blank line, outside ``` fences), one per
# output line, a trailing-backslash continuation joined to its line.  A
# block whose first line starts with "$ " is a transcript: its "$ " lines
# are printed as "$ COMMAND", the lines that follow each as "> OUTPUT".
BEGIN { fence = 0; inblock = 0; prevblank = 1; transcript = 0; pending = "" }
/^```/ { fence = !fence; inblock = 0; prevblank = 0; next }
fence { next }
/^    / && (inblock || prevblank) {
	line = substr($0, 5)
	if (!inblock)
		transcript = (line ~ /^\$ /)
	inblock = 1
	prevblank = 0
	if (transcript) {
		if (line ~ /^\$ /)
			print line
		else
			print "> " line
		next
	}
	if (line ~ /\\$/) {
		pending = pending substr(line, 1, length(line) - 1) " "
		next
	}
	print pending line
	pending = ""
	next
}
/^[ \t]*$/ { prevblank = 1; next }
{ inblock = 0; prevblank = 0 }
