// Preloaded (--require) into a bare floor profiled by profile.js: SIGTERM ends the process normally,
// so Node writes its --cpu-prof file (by default SIGTERM kills it before the profile is written).
process.on('SIGTERM', () => process.exit(0));
