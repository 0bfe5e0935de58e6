import { walkInThisThread } from '../../src/cli/lint';
const c0 = process.cpuUsage(); const t0 = performance.now();
const d = walkInThisThread(['.'], process.cwd());
const c = process.cpuUsage(c0);
console.log('files', d.files.length, 'wall', (performance.now() - t0).toFixed(0), 'cpu', ((c.user + c.system) / 1000).toFixed(0));
const c1 = process.cpuUsage(); const t1 = performance.now();
const d2 = walkInThisThread(['.'], process.cwd());
const cc = process.cpuUsage(c1);
console.log('again files', d2.files.length, 'wall', (performance.now() - t1).toFixed(0), 'cpu', ((cc.user + cc.system) / 1000).toFixed(0));
