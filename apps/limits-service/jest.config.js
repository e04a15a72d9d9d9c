module.exports = { ...require('../../jest.preset.js'), displayName: 'limits-service', rootDir: __dirname, testMatch: ['<rootDir>/src/**/*.spec.ts'] };
