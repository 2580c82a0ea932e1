// The machines this project runs on have no route to browser downloads; tests use the
// system Firefox (see web-test-runner.config.mjs).
module.exports = { skipDownload: true };
