package replay

import (
	"slices"

	"github.com/tileproof/tileproof/internal/strictyaml"
	"go.yaml.in/yaml/v3"
)

// readYAML reads a YAML replay document (or the header left once cutMoves
// took its move log) into f: parsed into nodes by the YAML library within
// lim (headerLimits, with more bytes for the header cutMoves leaves, whose
// blanked lines count for nothing), then each field read as its kind.
func readYAML(name string, data []byte, f *form, lim strictyaml.Limits) error {
	root, err := strictyaml.Parse(name, data, lim)
	if err != nil {
		return err
	}
	errs := &decodeError{name: name}
	readMapping(root, "", replayFields, f, errs)
	if len(errs.list) > 0 {
		return errs.list
	}
	return nil
}

func nodePos(n *yaml.Node) pos { return pos{line: n.Line, col: n.Column} }

// readMapping reads the mapping n at path ("" for the replay) of the given
// fields, stopping at the first error.
func readMapping(n *yaml.Node, path string, fields []field, f *form, errs *decodeError) {
	if path == "" {
		path = "the replay"
	}
	if !plainKind(n, yaml.MappingNode, "a mapping", path, errs) {
		return
	}
	for i := 0; i+1 < len(n.Content) && len(errs.list) == 0; i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if !plainNode(k, path, errs) {
			return
		}
		fd, ok := lookup(fields, k.Value)
		if k.Kind != yaml.ScalarNode || k.Tag != "!!str" || !ok {
			errs.add(nodePos(k), "unknown field %s", strictyaml.Echo(k.Value))
			return
		}
		f.mark(fd.id, nodePos(k))
		readValue(v, fd, f, errs)
	}
}

// plainNode reports whether n uses none of the YAML features a replay has
// no use for and that make one document mean different things to
// different readers, or cost far more than its size: anchors, aliases,
// merge keys, and tags other than the core schema's.
func plainNode(n *yaml.Node, path string, errs *decodeError) bool {
	switch {
	case n.Kind == yaml.AliasNode || n.Anchor != "":
		errs.add(nodePos(n), "%s: an anchor or alias; a replay is read without them", path)
	case n.Tag == "!!merge":
		errs.add(nodePos(n), "%s: a merge key (<<); a replay is read without them", path)
	case n.Kind == yaml.ScalarNode && !slices.Contains([]string{"!!str", "!!int", "!!bool", "!!null", "!!float"}, n.Tag):
		errs.add(nodePos(n), "%s: the tag %s; a replay's values are strings, numbers, true, false or null", path, strictyaml.Echo(n.Tag))
	default:
		return true
	}
	return false
}

// plainKind reports whether n is a plain node (plainNode) of the given
// kind; when it is not, it says so, what standing where want goes.
func plainKind(n *yaml.Node, kind yaml.Kind, want, path string, errs *decodeError) bool {
	if !plainNode(n, path, errs) {
		return false
	}
	if n.Kind != kind {
		errs.add(nodePos(n), "%s: %s where %s goes", path, nodeKind(n), want)
		return false
	}
	return true
}

func nodeKind(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "a mapping"
	case yaml.SequenceNode:
		return "a list"
	}
	return yamlScalar(n).describe()
}

// yamlScalar classifies a scalar node as the syntaxes share it. A number
// counts as one only written plainly, as YAML resolves it (not quoted);
// true and false only in lower case.
func yamlScalar(n *yaml.Node) scalar {
	s := scalar{text: n.Value, kind: sOther, at: nodePos(n)}
	switch n.Tag {
	case "!!str":
		s.kind = sString
		s.yaml11 = n.Style == 0 && yaml11Scalar(n.Value)
	case "!!int":
		s.kind = classifyNumber(n.Value)
	case "!!bool":
		if n.Value == "true" || n.Value == "false" {
			s.kind = sBool
		}
	case "!!null":
		s.kind = sNull
	}
	return s
}

// yaml11Scalar reports whether a plain scalar that YAML 1.2 reads as the
// string s is a boolean or a number to YAML 1.1: y, yes, on, n, no, off
// in their three cases, or a sexagesimal number ([-+]?[1-9][0-9_]* then
// one or more :[0-5]?[0-9] for an integer, 1:20 being 80; a float may
// start with 0 and has a fraction, .[0-9_]*).
func yaml11Scalar(s string) bool {
	switch s {
	case "y", "Y", "yes", "Yes", "YES", "n", "N", "no", "No", "NO", "on", "On", "ON", "off", "Off", "OFF":
		return true
	}
	if s != "" && (s[0] == '-' || s[0] == '+') {
		s = s[1:]
	}
	if s == "" || s[0] < '0' || s[0] > '9' {
		return false
	}
	i := 0
	for i < len(s) && ('0' <= s[i] && s[i] <= '9' || s[i] == '_') {
		i++
	}
	groups := 0
	for i < len(s) && s[i] == ':' {
		j := i + 1
		for j < len(s) && j < i+3 && '0' <= s[j] && s[j] <= '9' {
			j++
		}
		if j == i+1 || j == i+3 && s[i+1] > '5' {
			return false
		}
		groups, i = groups+1, j
	}
	if groups == 0 {
		return false
	}
	if i < len(s) && s[i] == '.' {
		for i++; i < len(s) && ('0' <= s[i] && s[i] <= '9' || s[i] == '_'); i++ {
		}
		return i == len(s)
	}
	return i == len(s) && s[0] != '0' // an integer starts with 1-9

}

// readValue reads the value node v of field fd.
func readValue(v *yaml.Node, fd field, f *form, errs *decodeError) {
	path := paths[fd.id]
	if !plainNode(v, path, errs) {
		return
	}
	switch {
	case fd.kind == kObject:
		readMapping(v, path, fd.sub, f, errs)
		return
	case fd.kind == kBoard && v.Kind == yaml.SequenceNode:
		rows := make([][]scalar, 0, len(v.Content))
		for _, row := range v.Content {
			if !plainKind(row, yaml.SequenceNode, "a row (a list of cells)", path, errs) {
				return
			}
			cells := make([]scalar, 0, len(row.Content))
			for _, cell := range row.Content {
				if !plainKind(cell, yaml.ScalarNode, "a cell", path, errs) {
					return
				}
				cells = append(cells, yamlScalar(cell))
			}
			rows = append(rows, cells)
		}
		f.setRows(fd, nodePos(v), rows, errs)
		return
	case v.Kind != yaml.ScalarNode:
		errs.add(nodePos(v), "%s: %s where a single value goes", path, nodeKind(v))
		return
	}
	s := yamlScalar(v)
	s.block = v.Style == yaml.LiteralStyle || v.Style == yaml.FoldedStyle
	f.setScalar(fd, s, errs)
}
