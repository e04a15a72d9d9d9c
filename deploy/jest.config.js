// docker-compose.yml and deploy/k8s/ against their schemas and against the code (no Docker, no cluster needed).
module.exports = { ...require('../jest.preset.js'), displayName: 'deploy', rootDir: __dirname, testMatch: ['<rootDir>/tests/**/*.spec.ts'] };
