# posbox: the back office of a restaurant POS system.
VERSION ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
BUILD   ?= $(shell git rev-parse --short HEAD 2>/dev/null)
LDFLAGS := -s -w -X main.version=$(VERSION) -X main.build=$(BUILD)
GO      ?= go
export CGO_ENABLED := 0

.PHONY: run build test bench lint cross clean

## run: start the appliance on :8080 with ./data (simulator TSE, generated admin)
run:
	$(GO) run . serve --addr :8080 --data-dir ./data

## build: the binary for this machine
build:
	$(GO) build -trimpath -ldflags '$(LDFLAGS)' -o posbox .

## test: vet, gofmt and the race-enabled test suite on real SQLite files
test: lint
	CGO_ENABLED=1 $(GO) test -race -count=1 ./...

## lint: go vet and gofmt
lint:
	$(GO) vet ./...
	@out=$$(gofmt -l . ); if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi

## bench: speed and memory benchmarks
bench:
	$(GO) test -run '^$$' -bench . -benchmem ./...

## cross: CGO_ENABLED=0 builds for every shipped target
cross:
	GOOS=linux GOARCH=amd64 $(GO) build -trimpath -ldflags '$(LDFLAGS)' -o dist/posbox-linux-amd64 .
	GOOS=linux GOARCH=arm64 $(GO) build -trimpath -ldflags '$(LDFLAGS)' -o dist/posbox-linux-arm64 .
	GOOS=linux GOARCH=arm GOARM=7 $(GO) build -trimpath -ldflags '$(LDFLAGS)' -o dist/posbox-linux-armv7 .
	GOOS=windows GOARCH=amd64 $(GO) build -trimpath -ldflags '$(LDFLAGS)' -o dist/posbox-windows-amd64.exe .

clean:
	rm -rf dist posbox posbox.exe
