# What the C test builds share: the engine's sources and headers, and the
# perft suites with their published counts. Included by test/c/Makefile and
# test/fuzz/Makefile, which both run one folder below test/, so the paths
# here are relative to either. PERFT_DIR may be set to read other copies.
ENGINE_DIR = ../../csrc/engine
ENGINE_SOURCES = $(wildcard $(ENGINE_DIR)/*.c $(ENGINE_DIR)/variants/*.c)
ENGINE_HEADERS = $(wildcard $(ENGINE_DIR)/*.h $(ENGINE_DIR)/include/*.h $(ENGINE_DIR)/variants/*.h)
# Tests include the public headers (include/) and, for white-box checks,
# the engine's own.
ENGINE_INCLUDES = -I$(ENGINE_DIR)/include -I$(ENGINE_DIR)
PERFT_DIR ?= ../data
