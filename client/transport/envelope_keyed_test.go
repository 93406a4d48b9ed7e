package transport

import "testing"

// pickups/add answers a list-form refusal with an errors object that reads
// both as errors[0].message and as errors.<field>[0]; every message comes
// through once, and a field → list of messages alone reads too.
func TestErrorsObjectsAreRead(t *testing.T) {
	both, err := DecodeEnvelope([]byte(`{"status":400,"message":"x","errors":{"1":{"field":"pickups[0].date","message":"b"},"0":{"field":"pickups[0].address","message":"a"},"address":["a"],"date":["b"]}}`))
	if err != nil || len(both.Errors) != 2 || both.Errors[0] != (FieldError{Field: "pickups[0].address", Message: "a"}) || both.Errors[1] != (FieldError{Field: "pickups[0].date", Message: "b"}) {
		t.Errorf("both ways: %+v %v", both.Errors, err)
	}
	keyed, err := DecodeEnvelope([]byte(`{"status":400,"message":"x","errors":{"zip":["too long","not digits"],"city":"required"}}`))
	if err != nil || len(keyed.Errors) != 3 || keyed.Errors[0] != (FieldError{Field: "city", Message: "required"}) || keyed.Errors[1].Field != "zip" || keyed.Errors[2].Message != "not digits" {
		t.Errorf("keyed: %+v %v", keyed.Errors, err)
	}
}
