export { API_MAIN, freePort, startApiProcess, type ApiProcess, type StartOptions, type Teardown } from './api-process.js';
