/**
 * Draws the demo site's images (sites/demo/images/*.jpg): flat illustrations from SVG shapes and gradients, rendered
 * by sharp to 1500×1500 JPEG. Nothing is downloaded; run again after changing a drawing:
 *   node_modules/.bin/tsx scripts/make-demo-images.ts
 */
import { mkdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';

const SIZE = 1500;
const OUT = join(dirname(fileURLToPath(import.meta.url)), '..', 'sites', 'demo', 'images');
const MAX_BYTES = 60 * 1024;

type Drawing = { name: string; from: string; to: string; body: string };

const mug = (c: string, speck = false) => `
  <rect x="470" y="560" width="480" height="520" rx="60" fill="${c}"/>
  <path d="M950 680 q190 0 190 170 q0 170 -190 170" fill="none" stroke="${c}" stroke-width="60"/>
  <ellipse cx="710" cy="565" rx="240" ry="40" fill="#00000022"/>
  ${speck ? Array.from({ length: 40 }, (_, i) => `<circle cx="${500 + ((i * 97) % 420)}" cy="${620 + ((i * 61) % 420)}" r="6" fill="#3b2f2a66"/>`).join('') : ''}`;
const bowl = (c: string, inner = '#ffffff55') => `
  <path d="M380 700 h740 q-40 380 -370 380 q-330 0 -370 -380 z" fill="${c}"/>
  <ellipse cx="750" cy="700" rx="370" ry="70" fill="${inner}"/>`;
const bag = (c: string, label: string) => `
  <path d="M520 520 h460 l40 620 h-540 z" fill="${c}"/>
  <rect x="520" y="470" width="460" height="70" fill="${c}" opacity="0.8"/>
  <rect x="600" y="760" width="300" height="200" rx="20" fill="${label}"/>
  <circle cx="750" cy="860" r="50" fill="${c}"/>`;
const vase = (c: string) => `
  <path d="M680 380 h140 v120 q200 120 200 360 q0 260 -270 260 q-270 0 -270 -260 q0 -240 200 -360 z" fill="${c}"/>`;
const plate = (c: string) => `
  <circle cx="750" cy="780" r="420" fill="${c}"/><circle cx="750" cy="780" r="300" fill="#ffffff33"/>`;
const card = (c: string, accent: string) => `
  <rect x="330" y="500" width="840" height="520" rx="50" fill="${c}"/>
  <rect x="330" y="620" width="840" height="70" fill="${accent}"/>
  <circle cx="1030" cy="900" r="70" fill="${accent}"/>`;
const beans = (c: string) =>
  Array.from({ length: 9 }, (_, i) => {
    const x = 470 + (i % 3) * 280;
    const y = 520 + Math.floor(i / 3) * 240;
    return `<g transform="rotate(${((i * 37) % 90) - 45} ${x} ${y})"><ellipse cx="${x}" cy="${y}" rx="95" ry="65" fill="${c}"/><path d="M${x - 80} ${y} q80 -30 160 0" stroke="#00000055" stroke-width="12" fill="none"/></g>`;
  }).join('');
const dripper = (c: string) => `
  <path d="M480 520 h540 l-170 330 h-200 z" fill="${c}"/>
  <rect x="590" y="850" width="320" height="40" rx="10" fill="${c}"/>
  <path d="M560 900 h380 v180 q0 60 -60 60 h-260 q-60 0 -60 -60 z" fill="#ffffff88"/>`;
const cups = (c: string) => `
  <rect x="360" y="700" width="300" height="300" rx="50" fill="${c}"/>
  <rect x="840" y="700" width="300" height="300" rx="50" fill="${c}"/>
  <ellipse cx="510" cy="1020" rx="200" ry="35" fill="#00000022"/><ellipse cx="990" cy="1020" rx="200" ry="35" fill="#00000022"/>`;
const book = (c: string) => `
  <rect x="470" y="380" width="560" height="760" rx="20" fill="${c}"/>
  <rect x="520" y="480" width="460" height="40" fill="#ffffff99"/><rect x="520" y="560" width="300" height="30" fill="#ffffff66"/>`;
const wheel = (c: string) => `
  <ellipse cx="750" cy="1000" rx="460" ry="110" fill="#00000033"/>
  <ellipse cx="750" cy="940" rx="420" ry="100" fill="${c}"/>
  <path d="M610 900 q-20 -250 140 -300 q160 50 140 300 z" fill="#b07a55"/>`;
const towel = (c: string) => `
  <rect x="480" y="380" width="540" height="760" rx="10" fill="${c}"/>
  ${[0, 1, 2, 3].map((i) => `<rect x="480" y="${460 + i * 40}" width="540" height="14" fill="#ffffff66"/>`).join('')}`;
const scoop = (c: string) => `
  <rect x="700" y="420" width="80" height="520" rx="40" fill="${c}" transform="rotate(-30 740 680)"/>
  <circle cx="900" cy="960" r="170" fill="${c}"/><circle cx="900" cy="960" r="120" fill="#00000033"/>`;
const lock = (c: string) => `
  <path d="M600 700 v-120 q0 -150 150 -150 q150 0 150 150 v120" fill="none" stroke="${c}" stroke-width="70"/>
  <rect x="500" y="700" width="500" height="420" rx="50" fill="${c}"/>`;
const calendar = (c: string) => `
  <rect x="430" y="460" width="640" height="620" rx="40" fill="#ffffffdd"/><rect x="430" y="460" width="640" height="150" rx="40" fill="${c}"/>
  ${Array.from({ length: 12 }, (_, i) => `<rect x="${490 + (i % 4) * 140}" y="${660 + Math.floor(i / 4) * 130}" width="100" height="90" rx="12" fill="${i === 6 ? c : '#00000018'}"/>`).join('')}`;
const landscape = (c: string) => `
  <circle cx="1150" cy="420" r="140" fill="#fff3c4"/>
  <path d="M0 1100 q400 -300 800 -80 q400 -200 700 -40 v520 h-1500 z" fill="${c}"/>`;

const drawings: Drawing[] = [
  { name: 'speckled-mug-oatmeal', from: '#f4ece1', to: '#e4d5c0', body: mug('#efe4d2', true) },
  { name: 'speckled-mug-slate', from: '#e8edf0', to: '#c9d3da', body: mug('#5d6b77', true) },
  { name: 'speckled-mug-sage', from: '#eef2ea', to: '#d3dccb', body: mug('#9aab8f', true) },
  { name: 'stoneware-bowl', from: '#f6efe6', to: '#dfcdb8', body: bowl('#3f3b38') },
  { name: 'pour-over-dripper', from: '#f2f2ef', to: '#d8d6cf', body: dripper('#faf8f3') },
  { name: 'espresso-cups', from: '#f3e6dc', to: '#d6b9a3', body: cups('#8a4f35') },
  { name: 'bud-vase', from: '#e9eef3', to: '#c5d1dd', body: vase('#2f5d7c') },
  { name: 'dinner-plate', from: '#f5f1ea', to: '#e0d6c6', body: plate('#cbb9a0') },
  { name: 'house-blend', from: '#efe3d3', to: '#c9ad8c', body: bag('#6b4a33', '#f3e7d5') },
  { name: 'ethiopia-yirgacheffe', from: '#f7ead9', to: '#e2b98d', body: bag('#c2703d', '#fff4e4') },
  { name: 'coffee-subscription', from: '#ebe4dc', to: '#bfa88f', body: beans('#4a3021') },
  { name: 'gift-card', from: '#f4ebe3', to: '#dcc3ac', body: card('#2e2a27', '#d9a55b') },
  { name: 'engraved-mug', from: '#f1ede8', to: '#d9cfc3', body: mug('#2f2c2a') },
  { name: 'brewing-guide', from: '#edf1ec', to: '#c8d4c5', body: book('#44624a') },
  { name: 'wheel-workshop', from: '#f3ebe3', to: '#d7c1ab', body: wheel('#6f6a64') },
  { name: 'tasting-session', from: '#f4ece3', to: '#d8c0a5', body: calendar('#7a4b2e') },
  { name: 'recipe-club', from: '#eeeaf2', to: '#cdc4d9', body: lock('#5a4a72') },
  { name: 'linen-tea-towel', from: '#f5f2ec', to: '#e2dccf', body: towel('#b9a58c') },
  { name: 'coffee-scoop', from: '#f2ece6', to: '#d5c5b4', body: scoop('#8c6a4f') },
  { name: 'latte-bowls', from: '#f4efe9', to: '#dccfc2', body: bowl('#d9c7b1', '#ffffff77') },
  {
    name: 'hero',
    from: '#f3e9dd',
    to: '#caa98a',
    body: `${landscape('#8d6e55')}<g transform="translate(-200 -80)">${mug('#efe4d2', true)}</g><g transform="translate(330 60) scale(0.8)">${bowl('#3f3b38')}</g>`,
  },
  { name: 'post-glazes', from: '#e7eef2', to: '#b9cbd8', body: `${vase('#2f5d7c')}` },
  { name: 'post-brewing', from: '#f2ebe2', to: '#d4bb9d', body: dripper('#ffffff') },
  { name: 'post-studio', from: '#efe9e2', to: '#c9b7a4', body: wheel('#5d5853') },
];

mkdirSync(OUT, { recursive: true });
for (const d of drawings) {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${SIZE}" height="${SIZE}" viewBox="0 0 1500 1500">
  <defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${d.from}"/><stop offset="1" stop-color="${d.to}"/></linearGradient></defs>
  <rect width="1500" height="1500" fill="url(#g)"/>
  <ellipse cx="750" cy="1160" rx="520" ry="60" fill="#00000014"/>
  ${d.body}
</svg>`;
  const file = join(OUT, `${d.name}.jpg`);
  await sharp(Buffer.from(svg)).jpeg({ quality: 80, mozjpeg: true }).toFile(file);
  const bytes = statSync(file).size;
  if (bytes > MAX_BYTES) throw new Error(`${file} is ${bytes} bytes, above ${MAX_BYTES}`);
  console.log(`${d.name}.jpg  ${Math.round(bytes / 1024)} KB`);
}
