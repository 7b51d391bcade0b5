import { describe, expect, it } from 'vitest';
import { fileStem, fileTooLargeMessage, formatFileSize, mediaPath, uploadedName } from './media';

describe('the media library’s texts and paths', () => {
  it('says the limit in the words of the §5 message', () => {
    expect(fileTooLargeMessage('mug.png', 10 * 1024 * 1024)).toBe(
      'The file mug.png is too large. The maximum allowed file size is 10 MB.',
    );
    expect(formatFileSize(1536 * 1024)).toBe('1.5 MB');
    expect(formatFileSize(20_000)).toBe('19.5 KB');
    expect(formatFileSize(1024)).toBe('1 KB');
    expect(formatFileSize(900)).toBe('900 bytes');
    expect(formatFileSize(1)).toBe('1 byte');
  });

  it('keeps the name a browser sends without its folders, and makes a path of it that no other image has', () => {
    expect(uploadedName('C:\\fakepath\\Blue Mug.PNG')).toBe('Blue Mug.PNG');
    expect(uploadedName('  \u0000 ')).toBe('');
    expect(fileStem('Crème Brûlée (1).jpeg')).toBe('creme-brulee-1');
    expect(fileStem('.png')).toBe('image');
    expect(mediaPath('Blue Mug.PNG', 'png', new Set())).toBe('images/blue-mug.png');
    expect(mediaPath('blue mug.jpg', 'png', new Set(['images/blue-mug.png', 'images/blue-mug-2.png']))).toBe(
      'images/blue-mug-3.png',
    );
  });
});
