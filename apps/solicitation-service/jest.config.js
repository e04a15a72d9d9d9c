module.exports = { ...require('../../jest.preset.js'), displayName: 'solicitation-service', rootDir: __dirname, testMatch: ['<rootDir>/src/**/*.spec.ts'] };
