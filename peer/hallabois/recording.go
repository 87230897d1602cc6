package hallabois

import "bytes"

// Format is one of the peer's two recording formats.
type Format int

// The formats.
const (
	FormatV1 Format = 1
	FormatV2 Format = 2
)

// Recording is a recording in either format: one of V1 and V2 is set.
type Recording struct {
	V1 *V1
	V2 *V2
}

// Parse reads a recording in either format, telling them apart as the peer
// does: the second starts with "::".
func Parse(file string, data []byte) (*Recording, error) {
	var r Recording
	var err error
	if bytes.HasPrefix(data, []byte("::")) {
		r.V2, err = ParseV2(file, data)
	} else {
		r.V1, err = ParseV1(file, data)
	}
	if err != nil {
		return nil, err
	}
	return &r, nil
}

// Format returns the recording's format.
func (r *Recording) Format() Format {
	if r.V2 != nil {
		return FormatV2
	}
	return FormatV1
}

// Validate plays the recording by the peer's rules.
func (r *Recording) Validate() Validation {
	if r.V2 != nil {
		return ValidateV2(r.V2)
	}
	return ValidateV1(r.V1)
}
