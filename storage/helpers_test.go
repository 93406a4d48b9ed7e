package storage_test

import (
	"context"

	"shipdesk/storage"
)

func openURL(ctx context.Context, url string) (*storage.DB, error) { return storage.Open(ctx, url) }
