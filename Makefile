# posbox: the back office of a restaurant POS system.
VERSION ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
BUILD   ?= $(shell git rev-parse --short HEAD 2>/dev/null)
# Evaluated once: a commit made during a long build must not give the
# binary and the package name different versions.
VERSION := $(VERSION)
BUILD   := $(BUILD)
LDFLAGS := -s -w -X main.version=$(VERSION) -X main.build=$(BUILD)
GO      ?= go
export CGO_ENABLED := 0

# Package versions must start with a release number: v1.2.3 -> 1.2.3,
# v1.2.3-4-gabc -> 1.2.3-4-gabc, a bare commit -> 0.0.0+git.<commit>.
PKG_VERSION ?= $(shell echo '$(VERSION)' | sed -E 's/^v([0-9]+\.)/\1/; /^[0-9]+\.[0-9]+/!s/^/0.0.0+git./; /\+/!s/-/+/; s/-/./g')
PKG_VERSION := $(PKG_VERSION)
# nfpm v2.45.2: later versions do not install from the module proxy.
NFPM_VERSION := v2.45.2
NFPM ?= $(shell $(GO) env GOPATH)/bin/nfpm
# staticcheck v0.8.2 (2026.2.2): the newest release on the module proxy;
# it is built for Go 1.26 (go.mod says go 1.26.0), as posbox is.
STATICCHECK_VERSION := v0.8.2
STATICCHECK ?= $(shell $(GO) env GOPATH)/bin/staticcheck
# nfpm arch = file suffix of the cross-built binary.
LINUX_PKGS := amd64=amd64 arm64=arm64 arm7=armv7
# The packages' maintainer (and the changelog's). lintian refuses a mail
# host it does not know as routable (posbox.local: bogus-mail-host);
# .invalid is reserved (RFC 2606), passes, and says honestly that no
# mail reaches it. A vendor sets its own: make packages PKG_MAINTAINER='…'.
PKG_MAINTAINER ?= posbox developers <dev@posbox.invalid>
# The commit's time: the man page's and the changelog's date and every
# file's mtime in the packages, so that a rebuild gives the same bytes.
ifeq ($(origin SOURCE_DATE_EPOCH),undefined)
SOURCE_DATE_EPOCH := $(shell git log -1 --format=%ct 2>/dev/null || date +%s)
endif
# Generated files the packages carry: posbox.1.gz and changelog.gz.
PKG_DIR := dist/pkg
# nfpm's environment (see packaging/nfpm.yaml).
NFPM_ENV = PKG_VERSION='$(PKG_VERSION)' PKG_MAINTAINER='$(PKG_MAINTAINER)' SOURCE_DATE_EPOCH='$(SOURCE_DATE_EPOCH)'

.PHONY: run build test test-servers bench bench-micro torture fuzz lint cross dist packages deb-amd64 man windows-zip msi check-dist clean

## run: start the appliance on :8080 with ./data (simulator TSE, generated admin)
run:
	$(GO) run . serve --addr :8080 --data-dir ./data

## build: the binary for this machine
build:
	$(GO) build -trimpath -ldflags '$(LDFLAGS)' -o posbox .

## test: vet, gofmt, staticcheck and the race-enabled test suite on real SQLite files
# (server's package takes 8-10 minutes under -race on two cores, near go
# test's default limit of 10; 20 leaves room without hiding a hang long)
test: lint test-servers
	CGO_ENABLED=1 $(GO) test -race -count=1 -timeout 20m ./...

## test-servers: the replica tests' S3 server (versitygw), built from the module proxy once per machine, before the suite's parallel packages and their timeouts
test-servers:
	$(GO) test ./internal/replicatest -run '^TestS3ServesLitestreamsClient$$' -count=1 -timeout 20m

## lint: go vet, gofmt and staticcheck (installed at STATICCHECK_VERSION)
lint: $(STATICCHECK)
	$(GO) vet ./...
	@out=$$(gofmt -l . ); if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi
	$(STATICCHECK) ./...

$(STATICCHECK):
	$(GO) install honnef.co/go/tools/cmd/staticcheck@$(STATICCHECK_VERSION)

# make bench: FSYNC_DELAY=10ms runs posbox under strace with every fsync
# delayed (an SD card); BENCH_TIME, BENCH_RUSH, BENCH_SOAK and
# BENCH_OUTAGE_SALES size the runs (see loadbench_test.go),
# BENCH_REPLICA_RUSH the replicated rush (replicabench_test.go).
# BENCH_YEARS the seeded history of the year benchmark (loadbench_years_test.go;
# 1 or 2 for a shorter run); BENCH_ONLY=years runs only that.
BENCH_YEARS ?= 10
FSYNC_DELAY ?=
# make fuzz: how long each fuzz target runs, and how long a worker may
# minimise an input that found new coverage (go's default, 60 s, stalls a
# short run: server/fuzz_test.go, minimizeTime).
FUZZTIME ?= 10s
FUZZMINIMIZETIME ?= 3s

## bench: load benchmark of a real posbox serve on loopback, as ratios to a bare net/http B0, every scenario on day one and year ten (BENCH_YEARS, BENCH_ONLY=years), then replication lag under the lunch rush (file, SFTP), idle RSS, binary size and a new box's restore of 1 GB of database and 2 GB of archive (docs/PERFORMANCE.md); FSYNC_DELAY=10ms for slow storage
bench:
	FSYNC_DELAY='$(FSYNC_DELAY)' BENCH_YEARS='$(BENCH_YEARS)' $(GO) test -tags loadbench -run '^(TestLoadBench|TestYearBench)$$' -count=1 -v -timeout 120m .
ifneq ($(BENCH_ONLY),years)
	$(GO) test -tags loadbench -run '^$$' -bench '^(BenchmarkReplicationLagRush|BenchmarkIdleRSS|BenchmarkBinarySize)$$' -benchtime=1x -count=1 -timeout 30m .
	$(GO) test -run '^$$' -bench '^BenchmarkRestoreDataDir$$' -benchtime=1x -count=1 -timeout 30m ./replica
endif

## bench-micro: Go micro-benchmarks of the hot paths (compare runs with benchstat)
bench-micro:
	$(GO) test -run '^$$' -bench . -benchmem ./...

## torture: kill -9 a real posbox serve 20 times under mixed write and queue load; every acknowledged write must survive
torture:
	$(GO) test -tags torture -run '^TestTorture$$' -count=1 -v -timeout 30m .

## seed: build the history of a busy restaurant, YEARS years ending today, in the new data dir SEED_DIR (a binary built with -tags seed; docs/PERFORMANCE.md, "The seeded history")
.PHONY: seed
YEARS ?= 10
SEED_DIR ?= ./data-seed
seed:
	$(GO) build -tags seed -o posbox-seed . && ./posbox-seed seed --data-dir '$(SEED_DIR)' --years $(YEARS)

## fuzz: every request body's decoding and validation, each fuzz target for FUZZTIME (default 10s)
fuzz:
	@for f in $$($(GO) test -list '^Fuzz' ./server | grep '^Fuzz'); do \
		echo "fuzz $$f"; \
		$(GO) test -run '^$$' -fuzz "^$$f$$" -fuzztime $(FUZZTIME) -fuzzminimizetime $(FUZZMINIMIZETIME) ./server || exit 1; \
	done

## cross: CGO_ENABLED=0 builds for every shipped target
cross:
	GOOS=linux GOARCH=amd64 $(GO) build -trimpath -ldflags '$(LDFLAGS)' -o dist/posbox-linux-amd64 .
	GOOS=linux GOARCH=arm64 $(GO) build -trimpath -ldflags '$(LDFLAGS)' -o dist/posbox-linux-arm64 .
	GOOS=linux GOARCH=arm GOARM=7 $(GO) build -trimpath -ldflags '$(LDFLAGS)' -o dist/posbox-linux-armv7 .
	GOOS=windows GOARCH=amd64 $(GO) build -trimpath -ldflags '$(LDFLAGS)' -o dist/posbox-windows-amd64.exe .

## dist: cross builds, .deb and .rpm per Linux target, the Windows zip (and MSI where wixl is installed), checksums
dist: cross packages windows-zip msi
	cd dist && rm -f SHA256SUMS && sha256sum posbox_* posbox-* > SHA256SUMS

$(NFPM):
	$(GO) install github.com/goreleaser/nfpm/v2/cmd/nfpm@$(NFPM_VERSION)

## packages: .deb and .rpm for linux amd64, arm64 and armv7 (after cross), with the man page and changelog
packages: $(NFPM) man
	rm -f dist/posbox_*.deb dist/posbox-*.rpm
	packaging/changelog.sh '$(PKG_VERSION)' '$(BUILD)' '$(PKG_MAINTAINER)' '$(SOURCE_DATE_EPOCH)' > $(PKG_DIR)/changelog
	gzip -9nf $(PKG_DIR)/changelog
	@for p in $(LINUX_PKGS); do for fmt in deb rpm; do \
		PKG_ARCH=$${p%%=*} BINARY=dist/posbox-linux-$${p##*=} $(NFPM_ENV) \
			$(NFPM) package --config packaging/nfpm.yaml --packager $$fmt --target dist/ || exit 1; \
	done; done

## deb-amd64: only the amd64 .deb, for check-dist
deb-amd64: $(NFPM) man
	GOOS=linux GOARCH=amd64 $(GO) build -trimpath -ldflags '$(LDFLAGS)' -o dist/posbox-linux-amd64 .
	packaging/changelog.sh '$(PKG_VERSION)' '$(BUILD)' '$(PKG_MAINTAINER)' '$(SOURCE_DATE_EPOCH)' > $(PKG_DIR)/changelog
	gzip -9nf $(PKG_DIR)/changelog
	PKG_ARCH=amd64 BINARY=dist/posbox-linux-amd64 $(NFPM_ENV) \
		$(NFPM) package --config packaging/nfpm.yaml --packager deb --target dist/

## man: the manual page posbox(1), dist/pkg/posbox.1.gz (gzip -9n), written by the hidden "posbox man" from the command table
man:
	@mkdir -p $(PKG_DIR)
	SOURCE_DATE_EPOCH='$(SOURCE_DATE_EPOCH)' $(GO) run -trimpath -ldflags '$(LDFLAGS)' . man > $(PKG_DIR)/posbox.1
	gzip -9nf $(PKG_DIR)/posbox.1

## windows-zip: posbox.exe, the example config and install steps (after cross)
windows-zip:
	rm -rf dist/windows && mkdir -p dist/windows/posbox
	cp dist/posbox-windows-amd64.exe dist/windows/posbox/posbox.exe
	sed 's/$$/\r/' packaging/posbox.conf.example > dist/windows/posbox/posbox.conf.example
	sed 's/$$/\r/' packaging/windows/README.txt > dist/windows/posbox/README.txt
	sed 's/$$/\r/' docs/OPERATIONS.md > dist/windows/posbox/OPERATIONS.md
	sed 's/$$/\r/' docs/FISCAL.md > dist/windows/posbox/FISCAL.md
	rm -f dist/posbox-*-windows-amd64.zip
	cd dist/windows && zip -q -r ../posbox-$(PKG_VERSION)-windows-amd64.zip posbox

## msi: the Windows installer, built with Debian's wixl (msitools) when installed (after windows-zip)
msi:
	@rm -f dist/posbox-*.msi
	@if command -v wixl >/dev/null; then \
		packaging/windows/build-msi.sh '$(PKG_VERSION)' dist/windows/posbox dist/posbox-$(PKG_VERSION)-windows-amd64.msi; \
	else echo "msi: wixl not installed (apt-get install wixl); skipped"; fi

## check-dist: build the amd64 .deb, run lintian on it, unpack it, run its binary and check /api/health and the unit
check-dist: deb-amd64
	GO='$(GO)' packaging/check-dist.sh dist/posbox_$(PKG_VERSION)_amd64.deb '$(VERSION)' '$(BUILD)'

clean:
	rm -rf dist posbox posbox.exe
