// The npov assertion for promptfoo's `type: javascript` (value: file://npov-assert.mjs): promptfoo calls the
// default export with (output, context); context.config is the assertion's config, context.vars the test's.
export { npovAssertion as default } from "@npov/promptfoo";
