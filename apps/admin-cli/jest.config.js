module.exports = { ...require('../../jest.preset.js'), displayName: 'admin-cli', rootDir: __dirname, testMatch: ['<rootDir>/src/**/*.spec.ts'] };
