# The habits. Every target sets up first (scripts/setup.sh is idempotent and quick when nothing changed).
VENV := .venv
BIN := $(VENV)/bin
export YOLO_OFFLINE := 1
export YOLO_AUTOINSTALL := false

.PHONY: setup demo test lint format bench sample

setup:
	@bash scripts/setup.sh

demo: setup
	@$(BIN)/arbiter demo
	@$(BIN)/arbiter dashboard --open out/demo

test: setup
	$(BIN)/python -m pytest -q

lint: setup
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

format: setup
	$(BIN)/ruff format .
	$(BIN)/ruff check --fix .

bench: setup
	@$(BIN)/arbiter bench render --size 1280x720
	@$(BIN)/arbiter bench pipeline --size 1920x1080
	@$(BIN)/arbiter bench review --clips 8 --size 1280x720

# Re-create the bundled sample clip (samples/billiards/snooker) from its seed.
sample: setup
	rm -rf samples/billiards/snooker
	$(BIN)/arbiter synth billiards --game snooker --shots 1 --seed 3 --fps 30 --size 1280x720 --intent break --yolo-every 1000 --out samples/billiards/snooker
