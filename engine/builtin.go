package engine

import (
	"embed"
	"fmt"
	"io/fs"
	"slices"
	"strings"
	"sync"
)

//go:embed profiles/*.yaml
var profileFiles embed.FS

var builtins = sync.OnceValues(func() (map[string]*Profile, error) {
	m := map[string]*Profile{}
	names, err := fs.Glob(profileFiles, "profiles/*.yaml")
	if err != nil {
		return nil, err
	}
	for _, name := range names {
		data, err := profileFiles.ReadFile(name)
		if err != nil {
			return nil, err
		}
		p, err := parseProfile("engine/"+name, data, nil)
		if err != nil {
			return nil, err
		}
		if "profiles/"+p.Name+".yaml" != name {
			return nil, fmt.Errorf("engine/%s names profile %s", name, p.Name)
		}
		m[p.Name] = p
	}
	return m, nil
})

// loadBuiltin returns a copy of a built-in profile.
func loadBuiltin(name string) (*Profile, error) {
	m, err := builtins()
	if err != nil {
		return nil, err
	}
	if p, ok := m[name]; ok {
		return p.Clone(), nil
	}
	return nil, fmt.Errorf("no built-in profile %q (the built-ins are %s)", name, strings.Join(BuiltinNames(), ", "))
}

// BuiltinProfile returns a copy of the built-in profile of that name.
func BuiltinProfile(name string) (*Profile, error) { return loadBuiltin(name) }

// BuiltinNames returns the names of the built-in profiles, sorted.
func BuiltinNames() []string {
	m, _ := builtins()
	names := make([]string, 0, len(m))
	for name := range m {
		names = append(names, name)
	}
	slices.Sort(names)
	return names
}

// BuiltinProfileYAML returns the YAML definition of a built-in profile.
func BuiltinProfileYAML(name string) ([]byte, error) {
	if _, err := loadBuiltin(name); err != nil {
		return nil, err
	}
	return profileFiles.ReadFile("profiles/" + name + ".yaml")
}
