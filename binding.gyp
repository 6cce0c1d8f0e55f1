{
  # The engine (csrc/engine, its CPU variants in csrc/engine/variants) plus
  # the node-addon-api binding (csrc/binding/), the only files that include
  # Node headers. Hot code is compiled per instruction-set level inside the
  # engine (the variants use target pragmas) and chosen at run time, so the
  # binary stays baseline x86-64: never -march=native.
  "targets": [
    {
      "target_name": "chess_native",
      # Every .c of the engine and its variants (the set test/engine.mk gives
      # the C tests) plus the binding: binding.cc registers, args.cc holds the
      # shared argument and error helpers, the others one concern each.
      "sources": [
        "<!@(node -p \"['csrc/engine', 'csrc/engine/variants'].map(function (d) { return require('fs').readdirSync(d).filter(function (f) { return f.slice(-2) === '.c' }).sort().map(function (f) { return d + '/' + f }).join(' ') }).join(' ')\")",
        "csrc/binding/binding.cc",
        "csrc/binding/args.cc",
        "csrc/binding/constants.cc",
        "csrc/binding/positions.cc",
        "csrc/binding/san.cc",
        "csrc/binding/lines.cc",
        "csrc/binding/perft.cc",
        "csrc/binding/split.cc",
        "csrc/binding/pgn.cc"
      ],
      # The binding sees the engine's public headers only.
      "include_dirs": [
        "csrc/engine/include",
        "<!(node -p \"require('node-addon-api').include_dir\")"
      ],
      "defines": [
        "NAPI_VERSION=8",
        "NAPI_DISABLE_CPP_EXCEPTIONS",
        "NODE_ADDON_API_DISABLE_DEPRECATED"
      ],
      "cflags": ["-O3", "-fvisibility=hidden", "-Wall", "-Wextra"],
      # Engine functions start on 64-byte boundaries, so their speed does not
      # depend on how much code the linker places before them (a binding
      # import more or less shifted them and moved FEN -> list by ~5%).
      "cflags_c": ["-std=c11", "-falign-functions=64"],
      "cflags_cc": ["-std=c++17", "-fno-exceptions"],
      # Node's common.gypi adds -fno-omit-frame-pointer; the register it
      # frees is worth ~3% in perft's leaf counting.
      "cflags!": ["-O2", "-O0", "-Os", "-fno-omit-frame-pointer"],
      "cflags_cc!": ["-std=gnu++17", "-std=gnu++20", "-std=c++20", "-fexceptions"],
      "xcode_settings": {
        "GCC_OPTIMIZATION_LEVEL": "3",
        "GCC_SYMBOLS_PRIVATE_EXTERN": "YES",
        "GCC_C_LANGUAGE_STANDARD": "c11",
        "CLANG_CXX_LANGUAGE_STANDARD": "c++17",
        "GCC_ENABLE_CPP_EXCEPTIONS": "NO",
        "MACOSX_DEPLOYMENT_TARGET": "11.0",
        "OTHER_CFLAGS": ["-Wall", "-Wextra"]
      },
      "msvs_settings": {
        "VCCLCompilerTool": {
          "Optimization": 2,
          "FavorSizeOrSpeed": 1,
          "InlineFunctionExpansion": 2,
          "ExceptionHandling": 0,
          # Node's common.gypi already adds -std:c++17 (C++ files only);
          # /std:c11 applies to the C files.
          "AdditionalOptions": ["/std:c11", "/utf-8"]
        }
      },
      "conditions": [
        ["OS=='win'", {
          "defines": ["_CRT_SECURE_NO_WARNINGS", "WIN32_LEAN_AND_MEAN"]
        }]
      ]
    }
  ]
}
