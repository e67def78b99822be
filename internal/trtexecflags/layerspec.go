package trtexecflags

import (
	"errors"
	"fmt"
	"strings"
)

// LayerSetting is one entry of a --layerPrecisions, --layerOutputTypes or
// --layerDeviceTypes value: a layer name and what to set for it.
type LayerSetting struct {
	Name, Value string
}

// ParseLayerSpec reads the value of --layerPrecisions (and of
// --layerOutputTypes/--layerDeviceTypes) exactly as trtexec 8.4–10.16
// does (getLayerPrecisions + splitNameAndValue in sampleOptions.cpp):
//
//   - the value is split at every ',' — there is no escape, so a layer
//     name containing ',' cannot be given;
//   - an entry without a single quote is split at its LAST ':', so names
//     may contain ':' ("a:b:fp16" sets layer "a:b");
//   - an entry with single quotes must have exactly two: the name is the
//     text before the second quote with the quotes removed, and ':' and
//     the value follow ("'a:b':fp16"); a name containing ' cannot be given;
//   - "*" as a name is the default for all layers, and from 9.0 a name
//     with one '*' is also a wildcard pattern.
//
// Where trtexec would fail, crash or silently misread an entry (an empty
// entry, no ':', a quote count other than 0 or 2, no ':' after the quoted
// name, an empty value), ParseLayerSpec returns an error. Values are not
// checked here.
func ParseLayerSpec(spec string) ([]LayerSetting, error) {
	var out []LayerSetting
	for _, item := range splitList(spec) {
		s, err := splitNameValue(item)
		if err != nil {
			return nil, err
		}
		if s.Value == "" {
			return nil, fmt.Errorf("entry %q has no value after ':'", item)
		}
		out = append(out, s)
	}
	return out, nil
}

// splitNameValue is trtexec's splitNameAndValue (8.4 and later) with its
// silent misreadings turned into errors.
func splitNameValue(item string) (LayerSetting, error) {
	if item == "" {
		return LayerSetting{}, errors.New("empty entry (two commas in a row, or a trailing comma)")
	}
	if q := strings.Count(item, "'"); q > 0 {
		if q != 2 {
			return LayerSetting{}, fmt.Errorf("entry %q has %d single quotes; trtexec needs exactly 2 around the name ('name':value), so a name containing ' or ',' cannot be given", item, q)
		}
		parts := strings.SplitN(item, "'", 3)
		if !strings.HasPrefix(parts[2], ":") {
			return LayerSetting{}, fmt.Errorf("entry %q: expected ':' right after the quoted name", item)
		}
		return LayerSetting{Name: parts[0] + parts[1], Value: parts[2][1:]}, nil
	}
	i := strings.LastIndexByte(item, ':')
	if i < 0 {
		return LayerSetting{}, fmt.Errorf("entry %q has no ':' (write name:value)", item)
	}
	return LayerSetting{Name: item[:i], Value: item[i+1:]}, nil
}

// AddressableLayerName reports whether a --layerPrecisions (or
// --layerOutputTypes/--layerDeviceTypes) entry can select exactly the
// layer called name. It cannot when the name is empty, contains ','
// (trtexec splits the list at every comma, with no escape), contains a
// single quote (trtexec requires exactly two, around the name), contains
// '*' (alone it means every layer; from 9.0 a name with '*' is also a
// pattern that changes other matching layers), or contains a NUL byte
// (cannot be passed in argv). Names with ':', spaces, '=' or other
// characters are fine: trtexec splits an entry at its last ':' and the
// shell quoting is ShellQuote's job.
func AddressableLayerName(name string) bool {
	return name != "" && !strings.ContainsAny(name, ",'*\x00")
}

// FormatLayerSpec writes settings as one --layerPrecisions value that
// ParseLayerSpec (and trtexec) reads back unchanged. It fails for a name
// that is not AddressableLayerName or a value containing ',' or ':'.
// Quote the whole --layerPrecisions=… argument with ShellQuote.
func FormatLayerSpec(settings []LayerSetting) (string, error) {
	parts := make([]string, 0, len(settings))
	for _, s := range settings {
		if !AddressableLayerName(s.Name) {
			return "", fmt.Errorf("layer name %q cannot be passed to trtexec's per-layer options (it contains ',', a single quote, '*' or NUL, or is empty)", s.Name)
		}
		if s.Value == "" || strings.ContainsAny(s.Value, ",:'") {
			return "", fmt.Errorf("value %q for layer %q is empty or contains ',', ':' or a quote", s.Value, s.Name)
		}
		parts = append(parts, s.Name+":"+s.Value)
	}
	return strings.Join(parts, ","), nil
}
