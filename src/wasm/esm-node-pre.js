// --pre-js: runs inside the module factory, before Emscripten's environment setup.
// Emscripten 3.1.6's Node branch reads the CommonJS-only `__dirname`, which an ES module does
// not have (later Emscripten versions fix this). Declaring it here, in the factory's scope,
// keeps the glue loadable in Node as an ES module. (`_scriptDir` is the glue's import.meta.url;
// import.meta itself cannot appear here, the optimizer parses pre-js code as a script.)
// `require` stays undefined: web/lib always passes the .wasm bytes (wasmBinary) in Node, so the
// glue never reads files itself.
var __dirname = typeof _scriptDir == 'string' ? new URL('.', _scriptDir).pathname : '';
