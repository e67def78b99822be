package trtexecflags

import (
	"errors"
	"path"
	"strconv"
	"strings"
	"unicode/utf8"
)

// word is one shell word of a command line after quote removal, or an
// operator. expanded marks a word with an unquoted or double-quoted $
// expansion, whose final text the shell decides.
type shellToken struct {
	text     string
	op       string // "" for a word; "sep" for | || && ; & newline; "redir" for < > >> etc.
	expanded bool
}

// shellWords splits a POSIX shell command line the way bash would for a
// simple command: blanks separate words, '…' is literal, "…" allows \" \\
// \$ \` escapes, a backslash escapes one character (backslash-newline
// continues the line), # at a word start begins a comment, and the
// operators | || && ; &, redirections and comments are returned as tokens.
// Command substitution ($(…), `…`) and a < or > inside a word are
// rejected: a printed command must not depend on them (a "<file>"
// placeholder would be read as a redirection).
func shellWords(s string) ([]shellToken, error) {
	var toks []shellToken
	var cur strings.Builder
	inWord, expanded := false, false
	flush := func() {
		if inWord {
			toks = append(toks, shellToken{text: cur.String(), expanded: expanded})
		}
		cur.Reset()
		inWord, expanded = false, false
	}
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\r':
			flush()
			i++
		case c == '\n':
			flush()
			toks = append(toks, shellToken{op: "sep", text: "\n"})
			i++
		case c == '\\':
			if i+1 >= len(s) {
				return nil, errors.New("the command ends in a lone backslash")
			}
			if s[i+1] != '\n' {
				cur.WriteByte(s[i+1])
				inWord = true
			}
			i += 2
		case c == '\'':
			j := strings.IndexByte(s[i+1:], '\'')
			if j < 0 {
				return nil, errors.New("a single quote (') is not closed")
			}
			cur.WriteString(s[i+1 : i+1+j])
			inWord = true
			i += j + 2
		case c == '"':
			inWord = true
			i++
			closed := false
			for i < len(s) {
				d := s[i]
				if d == '"' {
					closed = true
					i++
					break
				}
				if d == '\\' && i+1 < len(s) && strings.IndexByte("$`\"\\\n", s[i+1]) >= 0 {
					if s[i+1] != '\n' {
						cur.WriteByte(s[i+1])
					}
					i += 2
					continue
				}
				if d == '`' || (d == '$' && i+1 < len(s) && s[i+1] == '(') {
					return nil, errors.New("the command uses command substitution ($(…) or `…`); print the literal value instead")
				}
				if d == '$' {
					expanded = true
				}
				cur.WriteByte(d)
				i++
			}
			if !closed {
				return nil, errors.New("a double quote (\") is not closed")
			}
		case c == '`' || (c == '$' && i+1 < len(s) && s[i+1] == '('):
			return nil, errors.New("the command uses command substitution ($(…) or `…`); print the literal value instead")
		case c == '$':
			expanded = true
			inWord = true
			cur.WriteByte(c)
			i++
		case c == '#' && !inWord:
			j := i
			for i < len(s) && s[i] != '\n' {
				i++
			}
			toks = append(toks, shellToken{op: "comment", text: s[j:i]})
		case c == '|' || c == ';' || (c == '&' && !(i+1 < len(s) && s[i+1] == '>')):
			flush()
			op := string(c)
			if i+1 < len(s) && (s[i+1] == c || (c == '|' && s[i+1] == '&')) {
				op += string(s[i+1])
			}
			toks = append(toks, shellToken{op: "sep", text: op})
			i += len(op)
		case c == '<' || c == '>' || c == '&':
			if inWord && !allDigits(cur.String()) {
				return nil, errors.New("an unquoted '" + string(c) + "' inside the argument " + cur.String() + string(c) + "… is a shell redirection; replace the placeholder with a real value or quote it")
			}
			cur.Reset()
			inWord, expanded = false, false
			j := i + 1
			for j < len(s) && strings.IndexByte("<>&|", s[j]) >= 0 {
				j++
			}
			toks = append(toks, shellToken{op: "redir", text: s[i:j]})
			i = j
		default:
			cur.WriteByte(c)
			inWord = true
			i++
		}
	}
	flush()
	return toks, nil
}

func allDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// trtexecInvocations returns the argument lists (argv[1:]) of every
// simple command in toks whose program is trtexec, and whether toks held
// any command at all. Redirections and their targets are dropped;
// leading VAR=value assignments and the wrappers sudo, env, time, nohup,
// exec are skipped.
func trtexecInvocations(toks []shellToken) (runs [][]shellToken, any bool) {
	var seg []shellToken
	end := func() {
		if len(seg) == 0 {
			return
		}
		any = true
		i := 0
		for i < len(seg) && (isAssignment(seg[i].text) || wrappers[seg[i].text]) {
			i++
		}
		if i < len(seg) {
			prog := path.Base(strings.ReplaceAll(seg[i].text, "\\", "/"))
			if prog == "trtexec" || prog == "trtexec.exe" {
				runs = append(runs, append([]shellToken(nil), seg[i+1:]...))
			}
		}
		seg = seg[:0]
	}
	for i := 0; i < len(toks); i++ {
		t := toks[i]
		switch t.op {
		case "sep":
			end()
		case "comment":
		case "redir":
			if i+1 < len(toks) && toks[i+1].op == "" {
				i++ // the redirection's target
			}
		default:
			seg = append(seg, t)
		}
	}
	end()
	return runs, any
}

var wrappers = map[string]bool{"sudo": true, "env": true, "time": true, "nohup": true, "exec": true}

func isAssignment(s string) bool {
	eq := strings.IndexByte(s, '=')
	if eq <= 0 {
		return false
	}
	for i := 0; i < eq; i++ {
		c := s[i]
		if !(c == '_' || c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || i > 0 && c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

// ShellQuote is the one quoting function for every command trtperf prints
// (advice, next checks, hints, examples). It returns arg written so that
// it reaches the program unchanged, with nothing in it live (no $(…),
// backtick, ;, |, &, redirection, glob, variable or history expansion),
// choosing the first form that allows:
//
//   - bare, when arg holds only letters, digits and - _ = + : . / (the
//     same in every shell);
//   - in double quotes, when arg holds none of $ ` " ! % and no control
//     character, and no backslash before a quote, another backslash or the
//     end: literal in sh, bash, zsh, PowerShell and cmd.exe alike, and
//     read back unchanged by Windows' argument parser;
//   - else in POSIX single quotes ('\” for a quote): literal in sh, bash
//     and zsh, and in PowerShell when arg holds no single quote; cmd.exe
//     does not treat single quotes as quoting (see PortableArg).
func ShellQuote(arg string) string {
	switch {
	case arg == "":
		return `""`
	case bareSafe(arg):
		return arg
	case doubleSafe(arg):
		return `"` + arg + `"`
	}
	return "'" + strings.ReplaceAll(arg, "'", `'\''`) + "'"
}

// bareSafe: arg needs no quoting in sh, bash, zsh, PowerShell or cmd.exe.
// ',' (a PowerShell array), '@' (PowerShell splatting) and '%' (cmd.exe
// variables) are quoted too.
func bareSafe(arg string) bool {
	for i := 0; i < len(arg); i++ {
		c := arg[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte("-_=+:./", c) >= 0) {
			return false
		}
	}
	return true
}

// doubleSafe: inside double quotes nothing in arg is live in any of the
// shells ShellQuote serves (see there).
func doubleSafe(arg string) bool {
	for i := 0; i < len(arg); i++ {
		c := arg[i]
		if c < 0x20 || c == 0x7f || strings.IndexByte("$`\"!%", c) >= 0 {
			return false
		}
		if c == '\\' && (i == len(arg)-1 || arg[i+1] == '\\' || arg[i+1] == '"') {
			return false
		}
	}
	return utf8.ValidString(arg)
}

// SafeEverywhere reports whether ShellQuote(arg) runs nothing and stays one
// argument in cmd.exe and PowerShell as well as in a POSIX shell. The bare
// and double-quoted forms always do, and reach the program unchanged
// everywhere; the single-quoted form does when arg holds no single quote,
// no blank or control character and none of the characters cmd.exe acts
// on outside double quotes (& | < > ^ % ! "), though cmd.exe passes the
// quotes on. A command printed for every platform names only such
// arguments.
func SafeEverywhere(arg string) bool {
	q := ShellQuote(arg)
	if q == arg || q[0] == '"' {
		return true
	}
	for _, r := range arg {
		if r < 0x20 || r == 0x7f || strings.ContainsRune("'&|<>^%!\" \t", r) {
			return false
		}
	}
	return true
}

// ShellArgs splits a command printed for a POSIX shell into the arguments
// the program receives, and fails when anything in it is live: an
// operator (| ; & && ||), a redirection, a $ expansion, command
// substitution, an unclosed quote or a comment. Tests use it to prove a
// printed command runs exactly what it names.
func ShellArgs(s string) ([]string, error) {
	toks, err := shellWords(s)
	if err != nil {
		return nil, err
	}
	args := make([]string, 0, len(toks))
	for _, t := range toks {
		switch {
		case t.op != "":
			return nil, errors.New("the command holds the shell operator " + strconv.Quote(t.text))
		case t.expanded:
			return nil, errors.New("the argument " + strconv.Quote(t.text) + " holds a $ expansion")
		}
		args = append(args, t.text)
	}
	return args, nil
}

// QuoteCommand joins argv into one shell command line, quoting each word
// with ShellQuote.
func QuoteCommand(argv []string) string {
	q := make([]string, len(argv))
	for i, a := range argv {
		q[i] = ShellQuote(a)
	}
	return strings.Join(q, " ")
}
