package main

import (
	"errors"
	"sort"
	"strings"

	"shipdesk/apperr"
)

// describe turns an application error into a message for the terminal, in
// English as the command line speaks, with the field problems spelled out.
func describe(err error) error {
	var e *apperr.Error
	if !errors.As(err, &e) || e.Code == apperr.Internal {
		return err
	}
	msg := e.Message.String()
	if len(e.Fields) > 0 {
		keys := make([]string, 0, len(e.Fields))
		for k := range e.Fields {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		var parts []string
		for _, k := range keys {
			parts = append(parts, k+": "+e.Fields[k].String())
		}
		msg += " (" + strings.Join(parts, "; ") + ")"
	}
	return errors.New(msg)
}
