import Anthropic from '@anthropic-ai/sdk';

const client = new Anthropic();

const stamp = { at: Date.now(), zone: 'UTC' };
const layer1 = { left: stamp, right: stamp, depth: 1 };
const layer2 = { left: layer1, right: layer1, depth: 2 };
const layer3 = { left: layer2, right: layer2, depth: 3 };
const layer4 = { left: layer3, right: layer3, depth: 4 };
const layer5 = { left: layer4, right: layer4, depth: 5 };
const layer6 = { left: layer5, right: layer5, depth: 6 };
const layer7 = { left: layer6, right: layer6, depth: 7 };
const layer8 = { left: layer7, right: layer7, depth: 8 };
const layer9 = { left: layer8, right: layer8, depth: 9 };
const layer10 = { left: layer9, right: layer9, depth: 10 };
const layer11 = { left: layer10, right: layer10, depth: 11 };
const layer12 = { left: layer11, right: layer11, depth: 12 };
const layer13 = { left: layer12, right: layer12, depth: 13 };
const layer14 = { left: layer13, right: layer13, depth: 14 };
const layer15 = { left: layer14, right: layer14, depth: 15 };
const layer16 = { left: layer15, right: layer15, depth: 16 };
const layer17 = { left: layer16, right: layer16, depth: 17 };
const layer18 = { left: layer17, right: layer17, depth: 18 };
const layer19 = { left: layer18, right: layer18, depth: 19 };
const layer20 = { left: layer19, right: layer19, depth: 20 };
const layer21 = { left: layer20, right: layer20, depth: 21 };
const layer22 = { left: layer21, right: layer21, depth: 22 };
const layer23 = { left: layer22, right: layer22, depth: 23 };
const layer24 = { left: layer23, right: layer23, depth: 24 };
const layer25 = { left: layer24, right: layer24, depth: 25 };
const layer26 = { left: layer25, right: layer25, depth: 26 };
const layer27 = { left: layer26, right: layer26, depth: 27 };
const layer28 = { left: layer27, right: layer27, depth: 28 };
const layer29 = { left: layer28, right: layer28, depth: 29 };
const layer30 = { left: layer29, right: layer29, depth: 30 };
const layer31 = { left: layer30, right: layer30, depth: 31 };
const layer32 = { left: layer31, right: layer31, depth: 32 };
const layer33 = { left: layer32, right: layer32, depth: 33 };
const layer34 = { left: layer33, right: layer33, depth: 34 };
const layer35 = { left: layer34, right: layer34, depth: 35 };
const layer36 = { left: layer35, right: layer35, depth: 36 };
const layer37 = { left: layer36, right: layer36, depth: 37 };
const layer38 = { left: layer37, right: layer37, depth: 38 };
const layer39 = { left: layer38, right: layer38, depth: 39 };
const layer40 = { left: layer39, right: layer39, depth: 40 };
let banner = `run ${Math.random()}`; // expect: [volatile-system-prompt] `Math.random()`
banner = banner + banner;
banner = banner + banner;
banner = banner + banner;
banner = banner + banner;
banner = banner + banner;
banner = banner + banner;
banner = banner + banner;
banner = banner + banner;
banner = banner + banner;
banner = banner + banner;
banner = banner + banner;
banner = banner + banner;
banner = banner + banner;
banner = banner + banner;
banner = banner + banner;
banner = banner + banner;
banner = banner + banner;
banner = banner + banner;
banner = banner + banner;
banner = banner + banner;
banner = banner + banner;
banner = banner + banner;
banner = banner + banner;
banner = banner + banner;
banner = banner + banner;
banner = banner + banner;
banner = banner + banner;
banner = banner + banner;
banner = banner + banner;
banner = banner + banner;
banner = banner + banner;
banner = banner + banner;
banner = banner + banner;
banner = banner + banner;
banner = banner + banner;
banner = banner + banner;
banner = banner + banner;
banner = banner + banner;
banner = banner + banner;
banner = banner + banner;

export async function report(question: string) {
  return client.messages.create({
    model: 'claude-sonnet-4-6',
    max_tokens: 256,
    system: [{ type: 'text', text: `Context: ${JSON.stringify(layer40)} ${banner}`, cache_control: { type: 'ephemeral' } }],  // expect: [volatile-system-prompt] `${JSON.stringify(layer40)}`
    messages: [{ role: 'user', content: question }],
  });
}
