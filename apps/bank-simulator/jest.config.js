module.exports = { ...require('../../jest.preset.js'), displayName: 'bank-simulator', rootDir: __dirname, testMatch: ['<rootDir>/src/**/*.spec.ts'] };
