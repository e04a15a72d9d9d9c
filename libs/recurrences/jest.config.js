module.exports = { ...require('../../jest.preset.js'), displayName: 'recurrences', rootDir: __dirname, testMatch: ['<rootDir>/src/**/*.spec.ts'] };
