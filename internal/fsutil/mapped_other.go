//go:build !(linux || darwin || freebsd || netbsd || openbsd || dragonfly)

package fsutil

func readMapped(path string) ([]byte, func() error, error) {
	data, err := ReadRegular(path)
	if err != nil {
		return nil, nil, err
	}
	return data, func() error { return nil }, nil
}
