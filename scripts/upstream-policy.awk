# SPDX-License-Identifier: GPL-2.0
#
# scripts/upstream's reader of a module policy file (module/policy_<name>.c):
# finds the body wake_affine_<name>(), the comment block right above it and
# the WL_FAIR_POLICY(<name>, "<doc>") line, and checks that the body uses
# nothing but what fair.c and module/fair.h both give the same meaning
# (docs/upstream.md, "The policy API").
#
#	awk -v name=NAME -v out=DIR -f scripts/upstream-policy.awk FILE
#
# Writes DIR/comment (the comment block, as in the file), DIR/body (the
# function, verbatim), DIR/doc (the doc string), DIR/signature (the
# parameter names, one a line) and DIR/uses (the names of the API the
# body uses, one a line).  Exit 0: the policy can be transplanted;
# 1: it uses something it may not, one line per identifier on stdout,
# "FILE:LINE: IDENT: why"; 2: the file does not follow the contract, the
# reason on stdout.

# words(LIST, SET): each blank-separated word of LIST a key of SET.
function words(list, set,    a, i) {
	split(list, a)
	for (i in a)
		set[a[i]] = 1
}

function fail(msg) {
	print FILENAME ": " msg
	status = 2
	exit 2
}

# --- the tokenizer: comments, string and character literals left out ----------

# Tokens of line ln (text s) into tok[], tline[]; in_c: inside /* */.
function tokenize(s, ln,    i, n, c, c2, j, w) {
	n = length(s)
	i = 1
	while (i <= n) {
		c = substr(s, i, 1)
		c2 = substr(s, i, 2)
		if (in_c) {
			j = index(substr(s, i), "*/")
			if (!j)
				return
			in_c = 0
			i += j + 1
			continue
		}
		if (c2 == "/*") {
			in_c = 1
			i += 2
			continue
		}
		if (c2 == "//")
			return
		if (c == "\"" || c == "'") {
			for (j = i + 1; j <= n; j++) {
				if (substr(s, j, 1) == "\\") {
					j++
					continue
				}
				if (substr(s, j, 1) == c)
					break
			}
			ntok++
			tok[ntok] = c == "\"" ? "\"\"" : "''"
			tline[ntok] = ln
			i = j + 1
			continue
		}
		if (c ~ /[ \t\r\f\v]/) {
			i++
			continue
		}
		if (c ~ /[A-Za-z_]/) {
			w = substr(s, i)
			match(w, /^[A-Za-z_][A-Za-z0-9_]*/)
			ntok++
			tok[ntok] = substr(w, 1, RLENGTH)
			tline[ntok] = ln
			i += RLENGTH
			continue
		}
		if (c ~ /[0-9]/) {
			w = substr(s, i)
			match(w, /^[0-9][0-9A-Za-z_.]*/)
			ntok++
			tok[ntok] = "0"
			tline[ntok] = ln
			i += RLENGTH
			continue
		}
		ntok++
		tok[ntok] = c2 == "->" ? "->" : c
		tline[ntok] = ln
		i += c2 == "->" ? 2 : 1
	}
}

BEGIN {
	status = 0
	if (name == "" || out == "") {
		print "upstream-policy.awk: needs -v name=NAME -v out=DIR"
		exit 2
	}
	NAME = toupper(name)
	words("auto break case char const continue default do double else " \
	      "enum extern float for goto if inline int long register " \
	      "restrict return short signed sizeof static struct switch " \
	      "typedef union unsigned void volatile while", keyword)
	words("bool u8 u16 u32 u64 s8 s16 s32 s64 size_t true false NULL", ctype)
	# The policy API: what module/fair.h gives fair.c's meaning.
	words("cpu_load cpu_rq capacity_of cpus_share_cache available_idle_cpu " \
	      "task_h_load sched_feat WA_BIAS llc_stats read_llc_stats " \
	      "sched_cpu_nr_running sched_cpu_nr_runnable current " \
	      "nr_cpumask_bits min max min_t max_t sched_domain task_struct", api)
	# Words that start a declaration.
	words("const volatile static unsigned signed long short int char " \
	      "bool void u8 u16 u32 u64 s8 s16 s32 s64 size_t struct union enum", declword)
}

{
	L[NR] = $0
}

END {
	if (status)
		exit status
	N = NR

	# --- the body, its comment block, the WL_FAIR_POLICY line ---------
	fn = "wake_affine_" name
	bs = 0
	for (i = 1; i <= N; i++) {
		if (L[i] ~ /^static int[ \t]*$/ && index(L[i + 1], fn "(") == 1) {
			bs = i
			break
		}
		if (index(L[i], "static int " fn "(") == 1) {
			bs = i
			break
		}
	}
	if (!bs)
		fail("no body: the function 'static int\\n" fn "(struct sched_domain *sd, struct task_struct *p, int this_cpu, int prev_cpu, int sync)' is not there")
	for (be = bs + 1; be <= N && L[be] !~ /^}/; be++)
		;
	if (be > N)
		fail("the body " fn "() has no closing '}' in column 0")
	if (bs == 1 || L[bs - 1] !~ /\*\/[ \t]*$/)
		fail("no comment block right above 'static int " fn "(': it describes the feature, starting 'WA_" NAME ":'")
	for (cs = bs - 1; cs >= 1 && L[cs] !~ /^[ \t]*\/\*/; cs--)
		;
	if (cs < 1)
		fail("the comment block above " fn "() has no opening '/*'")
	text = ""
	for (i = cs; i < bs; i++) {
		s = L[i]
		sub(/^[ \t]*\/\*+/, "", s)
		sub(/\*\/[ \t]*$/, "", s)
		sub(/^[ \t]*\*[ \t]?/, "", s)
		text = text " " s
	}
	sub(/^[ \t]+/, "", text)
	if (index(text, "WA_" NAME ":") != 1)
		fail("the comment block above " fn "() must start with 'WA_" NAME ":' (it becomes the feature's comment in kernel/sched/features.h), not '" substr(text, 1, 30) "'")

	reg = ""
	for (i = 1; i <= N; i++) {
		if ((i < bs || i > be) && L[i] ~ /^[ \t]*WL_FAIR_POLICY[ \t]*\(/) {
			for (j = i; j <= N; j++) {
				reg = reg " " L[j]
				if (L[j] ~ /\)[ \t]*;/)
					break
			}
			break
		}
	}
	if (reg == "")
		fail("no 'WL_FAIR_POLICY(" name ", \"<one-line doc>\");' line: it registers the policy in the module and gives the patch's subject")
	s = reg
	sub(/^[ \t]*WL_FAIR_POLICY[ \t]*\([ \t]*/, "", s)
	pn = s
	sub(/[ \t]*,.*/, "", pn)
	if (pn != name)
		fail("WL_FAIR_POLICY(" pn ", ...) names another policy than " name)
	sub(/^[^,]*,[ \t]*/, "", s)
	doc = ""
	while (match(s, /^"([^"\\]|\\.)*"/)) {
		doc = doc substr(s, 2, RLENGTH - 2)
		s = substr(s, RLENGTH + 1)
		sub(/^[ \t]+/, "", s)
	}
	gsub(/\\"/, "\"", doc)
	if (doc == "" || s !~ /^\)[ \t]*;/)
		fail("WL_FAIR_POLICY(" name ", ...): the second argument must be a string literal, the policy's one-line doc")

	for (i = cs; i < bs; i++)
		print L[i] > (out "/comment")
	for (i = bs; i <= be; i++)
		print L[i] > (out "/body")
	print doc > (out "/doc")

	# --- tokens, and what the file defines outside the body -----------
	in_c = 0
	ntok = 0
	inpp = 0
	for (i = 1; i <= N; i++) {
		s = L[i]
		if (inpp) {
			inpp = s ~ /\\$/
			continue
		}
		if (!in_c && s ~ /^[ \t]*#/) {
			if (i >= bs && i <= be)
				pp_in_body = pp_in_body ? pp_in_body : i
			if (match(s, /^[ \t]*#[ \t]*define[ \t]+[A-Za-z_][A-Za-z0-9_]*/)) {
				d = substr(s, 1, RLENGTH)
				sub(/.*[ \t]/, "", d)
				if (!(d in filedef))
					filedef[d] = i
			}
			inpp = s ~ /\\$/
			continue
		}
		tokenize(s, i)
	}
	if (pp_in_body)
		fail(pp_in_body ": a preprocessor directive in the body: fair.c's copy would not have the module's configuration")

	# File scope outside the body: a name followed by ( = ; , [ { at
	# brace and paren depth 0 is defined there, and so is every name in
	# the arguments of a DEFINE_*() or DECLARE_*() there.
	bd = 0
	pd = 0
	inmac = 0
	for (t = 1; t <= ntok; t++) {
		if (tline[t] >= bs && tline[t] <= be)
			continue
		x = tok[t]
		if (x == "{") bd++
		else if (x == "}") bd--
		else if (x == "(") pd++
		else if (x == ")") {
			pd--
			if (inmac && pd == 0) {
				inmac = 0
				if (macname ~ /PER_CPU/ && !(lastid in percpu))
					percpu[lastid] = tline[t]
			}
		}
		if (bd != 0 || x !~ /^[A-Za-z_]/ || (x in keyword) || (x in ctype))
			continue
		if (inmac) {
			if (!(x in filedef))
				filedef[x] = tline[t]
			lastid = x
			continue
		}
		if (pd == 0 && x ~ /^(DEFINE|DECLARE)_/ && tok[t + 1] == "(") {
			inmac = 1
			macname = x
			continue
		}
		if (pd == 0 && x ~ /^module_param/ && tok[t + 1] == "(" &&
		    !(tok[t + 2] in modparam))
			modparam[tok[t + 2]] = tline[t]
		if (pd == 0 && tok[t + 1] ~ /^[(=;,[{]$/ && !(x in filedef))
			filedef[x] = tline[t]
	}

	# --- the body: signature, locals, uses ----------------------------
	t0 = 0
	for (t = 1; t <= ntok; t++)
		if (tline[t] >= bs) {
			t0 = t
			break
		}
	while (tok[t0] != fn)
		t0++
	if (tok[t0 + 1] != "(")
		fail(bs ": " fn " is not followed by its parameter list")
	# Parameters: groups between the commas of the list.
	np = 0
	grp = ""
	last = ""
	for (t = t0 + 2; tok[t] != ")"; t++) {
		if (tok[t] == ",") {
			np++
			ptype[np] = grp
			pname[np] = last
			grp = ""
			last = ""
			continue
		}
		if (last != "")
			grp = grp (grp == "" ? "" : " ") last
		last = tok[t]
	}
	np++
	ptype[np] = grp
	pname[np] = last
	want = "struct sched_domain *|struct task_struct *|int|int|int"
	got = ""
	for (k = 1; k <= np; k++)
		got = got (k > 1 ? "|" : "") ptype[k]
	if (got != want)
		fail(bs ": " fn "() must take (struct sched_domain *sd, struct task_struct *p, int this_cpu, int prev_cpu, int sync), as wake_affine() passes them")
	for (k = 1; k <= np; k++) {
		local[pname[k]] = 1
		print pname[k] > (out "/signature")
	}
	sdname = pname[1]
	tb = t + 1		# the body's opening brace
	if (tok[tb] != "{")
		fail(bs ": " fn "(...) is not followed by its body")

	# Locals: declarations at the start of a statement (or of a for's
	# first clause), their declarators up to ';'.
	start = 1
	for (t = tb + 1; t <= ntok && tline[t] <= be; t++) {
		x = tok[t]
		if (start && (x in declword)) {
			while (tok[t] in declword) {
				if (tok[t] ~ /^(struct|union|enum)$/)
					t++
				t++
			}
			depth = 0
			want_name = 1
			for (; t <= ntok && tline[t] <= be; t++) {
				y = tok[t]
				if (y == "(" || y == "[" || y == "{") depth++
				else if (y == ")" || y == "]" || y == "}") {
					if (!depth)
						break
					depth--
				} else if (!depth && y == ",") want_name = 1
				else if (!depth && y == ";") break
				else if (!depth && y == "=") want_name = 0
				else if (want_name && y ~ /^[A-Za-z_]/ && !(y in declword)) {
					local[y] = 1
					want_name = 0
				}
			}
			start = 1
			continue
		}
		if (start && x ~ /^[A-Za-z_]/ && tok[t + 1] == ":" && x != "default")
			label[x] = 1
		start = x == ";" || x == "{" || x == "}" || x == ":" || x == "else" ||
			(x == "(" && tok[t - 1] == "for")
	}

	nbad = 0
	for (t = tb + 1; t <= ntok && tline[t] <= be; t++) {
		x = tok[t]
		if (x !~ /^[A-Za-z_]/)
			continue
		if (tok[t - 1] == "->" || tok[t - 1] == ".") {
			if (tok[t - 1] == "->" && tok[t - 2] == sdname &&
			    x != "imbalance_pct" && tok[t - 3] != "." && tok[t - 3] != "->")
				why = "the module's sched_domain carries only imbalance_pct"
			else
				continue
		} else if (tok[t - 1] ~ /^(struct|union|enum)$/) {
			if (x in api) {
				uses[x] = 1
				continue
			}
			x = tok[t - 1] " " x
			why = "not in the policy API (docs/upstream.md): module/fair.h does not give this type fair.c's meaning"
		} else if ((x in local) || (x in label) || (x in keyword) || (x in ctype)) {
			continue
		} else if (x == "cpu_rq") {
			if (tok[t - 1] == "(" && tok[t - 2] == "cpu_load")
				continue
			why = "cpu_rq() only as cpu_load(cpu_rq(cpu)): the module's struct rq carries nothing but its CPU"
		} else if (x == "WA_BIAS") {
			if (tok[t - 1] == "(" && tok[t - 2] == "sched_feat")
				continue
			why = "WA_BIAS only as sched_feat(WA_BIAS)"
		} else if (x in api) {
			uses[x] = 1
			continue
		} else if (tok[t - 1] == "(" && tok[t - 2] == "sched_feat") {
			why = "sched_feat() of WA_BIAS only: the module has no copy of another feature"
		} else if (x ~ /^(wl|WL)_/) {
			why = "a name of the module (wl_*, WL_*): fair.c has none of them"
		} else if (x ~ /^(module_param|MODULE_|THIS_MODULE$|KBUILD_MODNAME$|EXPORT_SYMBOL)/) {
			why = "the module's own (module parameter, THIS_MODULE, MODULE_*): fair.c is not a module"
		} else if (x ~ /^(__|raw_)?(this_cpu_|per_cpu|get_cpu_var|put_cpu_var|DEFINE_PER_CPU|DECLARE_PER_CPU)/) {
			why = "per-CPU data of the module: fair.c cannot reach it"
		} else if (x in modparam) {
			why = "a module parameter (line " modparam[x] "): fair.c has no module parameters"
		} else if (x in percpu) {
			why = "per-CPU data of the module (line " percpu[x] "): fair.c cannot reach it"
		} else if (x in filedef) {
			why = "defined in the policy file outside the body (line " filedef[x] "): fair.c would not have it"
		} else {
			why = "not in the policy API (docs/upstream.md): module/fair.h does not give it fair.c's meaning"
		}
		if (tok[t - 1] == "->")
			x = sdname "->" x
		if (!(x in seen)) {
			seen[x] = 1
			nbad++
			print FILENAME ":" tline[t] ": " x ": " why
		}
	}
	for (x in uses)
		print x > (out "/uses")
	exit nbad ? 1 : 0
}
