module.exports = { ...require('../../jest.preset.js'), displayName: 'limits', rootDir: __dirname, testMatch: ['<rootDir>/src/**/*.spec.ts'] };
