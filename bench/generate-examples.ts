// Writes the demo data in examples/ from the seeded generator (run: node dist/bench/generate-examples.js).
import { writeFileSync } from 'node:fs';
import { shopRobots, shopUrls } from './data.js';

writeFileSync('examples/shop-robots.txt', shopRobots());
writeFileSync('examples/shop-urls.txt', [...shopUrls(24), 'https://shop.example/help/', 'https://shop.example/help/index.html', 'https://shop.example/help/returns', 'https://shop.example/robots.txt', '', 'not a url'].join('\n') + '\n');
