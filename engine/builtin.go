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

// builtinNames returns the built-in profiles' names, from their files'
// names (each file is checked to name its own profile when it is
// parsed); the caller must not change the list.
func builtinNames() []string {
	builtins.once.Do(func() {
		entries, _ := fs.ReadDir(profileFiles, "profiles")
		for _, e := range entries {
			if name, ok := strings.CutSuffix(e.Name(), ".yaml"); ok {
				builtins.names = append(builtins.names, name)
			}
		}
		slices.Sort(builtins.names)
	})
	return builtins.names
}

// builtins holds the built-in profiles' names, listed once, and the
// profiles parsed so far: each is parsed at its first use, so that a
// command pays for the profiles it uses, not for all of them.
var builtins struct {
	once   sync.Once
	names  []string
	mu     sync.Mutex
	parsed map[string]*Profile
}

// BuiltinProfile returns a copy of the built-in profile of that name.
func BuiltinProfile(name string) (*Profile, error) {
	if !slices.Contains(builtinNames(), name) {
		return nil, fmt.Errorf("no built-in profile %q (the built-ins are %s)", name, strings.Join(BuiltinNames(), ", "))
	}
	builtins.mu.Lock()
	defer builtins.mu.Unlock()
	p, ok := builtins.parsed[name]
	if !ok {
		file := "profiles/" + name + ".yaml"
		data, err := profileFiles.ReadFile(file)
		if err != nil {
			return nil, err
		}
		if p, err = parseProfile("engine/"+file, data, nil); err != nil {
			return nil, err
		}
		if p.Name != name {
			return nil, fmt.Errorf("engine/%s names profile %s", file, p.Name)
		}
		if builtins.parsed == nil {
			builtins.parsed = map[string]*Profile{}
		}
		builtins.parsed[name] = p
	}
	return p.Clone(), nil
}

// BuiltinNames returns the names of the built-in profiles, sorted.
func BuiltinNames() []string { return slices.Clone(builtinNames()) }

// BuiltinProfileYAML returns the YAML definition of a built-in profile.
func BuiltinProfileYAML(name string) ([]byte, error) {
	if _, err := BuiltinProfile(name); err != nil {
		return nil, err
	}
	return profileFiles.ReadFile("profiles/" + name + ".yaml")
}
