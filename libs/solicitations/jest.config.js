module.exports = { ...require('../../jest.preset.js'), displayName: 'solicitations', rootDir: __dirname, testMatch: ['<rootDir>/src/**/*.spec.ts'] };
