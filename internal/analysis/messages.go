package analysis

import "github.com/trtperf/trtperf/internal/contract"

// messages collects a backend's validation messages in the order found.
type messages struct{ list []contract.Message }

func (m *messages) add(level, code, text string) {
	m.list = append(m.list, contract.Message{Level: level, Code: code, Message: text})
}
func (m *messages) error(code, text string)   { m.add(contract.LevelError, code, text) }
func (m *messages) warning(code, text string) { m.add(contract.LevelWarning, code, text) }
func (m *messages) info(code, text string)    { m.add(contract.LevelInfo, code, text) }

func (m *messages) hasError() bool {
	for _, x := range m.list {
		if x.Level == contract.LevelError {
			return true
		}
	}
	return false
}

// items never returns nil, so the JSON always holds an array.
func (m *messages) items() []contract.Message {
	if m.list == nil {
		return []contract.Message{}
	}
	return m.list
}
