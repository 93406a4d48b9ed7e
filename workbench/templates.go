package workbench

// TemplateFits says whether a message template may be offered for a
// commission in status: "we have received the goods" only once the service
// has them, never while the commission still waits for them.
func TemplateFits(name, status string) bool {
	return name != "received" || status != "waiting_for_goods"
}
