import { ApiProperty } from '@nestjs/swagger';
import { ArrayMaxSize, IsArray, IsString, MaxLength } from 'class-validator';

export class PutCardSettingsDto {
  @ApiProperty({
    description:
      'Origins allowed to frame the hosted card page (CSP frame-ancestors) and to receive its messages: exact origins ' +
      '`https://host[:port]` (`http://` only for localhost/127.0.0.1/[::1]); no path or wildcard; at most 20. ' +
      'Empty: the page cannot be framed (the React Native component, which loads it top-level, still works).',
    example: ['https://shop.example.com'],
    type: [String],
  })
  @IsArray()
  @ArrayMaxSize(20)
  @IsString({ each: true })
  @MaxLength(200, { each: true })
  frameAncestors: string[];
}

export class CardSettingsDto {
  @ApiProperty({ type: [String], example: ['https://shop.example.com'] })
  frameAncestors: string[];
  @ApiProperty({ nullable: true, example: '2026-11-20T12:00:00Z' })
  updatedAt: string | null;
}
