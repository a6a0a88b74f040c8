import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

// The same file runs from src/ (tsx, jest) and from dist/src/ (npm start): look upwards for package.json.
const candidates = ['../package.json', '../../package.json'].map((p) => fileURLToPath(new URL(p, import.meta.url)));
const file = candidates.find((p) => existsSync(p) && JSON.parse(readFileSync(p, 'utf8')).name === 'school-platform');

export const version: string = file ? JSON.parse(readFileSync(file, 'utf8')).version : '0.0.0';
