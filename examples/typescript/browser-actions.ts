/* Carries out one computer-use action on the page and returns a short result for the model. */
import type { Page } from 'playwright';

interface ComputerAction {
  action: string;
  coordinate?: [number, number];
  text?: string;
}

export async function performAction(page: Page, input: unknown): Promise<string> {
  const { action, coordinate, text } = input as ComputerAction;
  if (action === 'left_click' && coordinate) await page.mouse.click(coordinate[0], coordinate[1]);
  else if (action === 'type' && text) await page.keyboard.type(text);
  else if (action === 'key' && text) await page.keyboard.press(text);
  else if (action !== 'screenshot') return `unsupported action: ${action}`;
  return 'done';
}
