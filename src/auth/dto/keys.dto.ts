import { ApiProperty } from '@nestjs/swagger';
import { IsString, Length, MaxLength } from 'class-validator';

const PEM_EXAMPLE = '-----BEGIN PUBLIC KEY-----\nMIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA…\n-----END PUBLIC KEY-----\n';

export class UploadKeyDto {
  @ApiProperty({
    description: 'PEM RSA public key, exactly 2048 bits: SPKI ("BEGIN PUBLIC KEY") or PKCS#1 ("BEGIN RSA PUBLIC KEY")',
    example: PEM_EXAMPLE,
  })
  @IsString()
  @MaxLength(8192)
  publicKey: string;
}

export class KeyCreatedDto {
  @ApiProperty({ example: '0b9e4c52-8a1d-4f7e-9a3b-5c2d1e0f4a67' })
  keyId: string;
  @ApiProperty({
    description: '32 random bytes, base64url: sign its UTF-8 bytes with RSA-PSS SHA-256',
    example: 'q1Yc3n3yJ4mJ0s6bX8S6yJvY8m6sG1d3s9V2i0P1kE4',
  })
  challenge: string;
  @ApiProperty({ description: 'The challenge verifies once, until this time (5 minutes)', example: '2026-11-20T12:05:00.000Z' })
  challengeExpiresAt: string;
}

export class ChallengeDto extends KeyCreatedDto {}

export class VerifyKeyDto {
  @ApiProperty({ description: 'The challenge exactly as received', example: 'q1Yc3n3yJ4mJ0s6bX8S6yJvY8m6sG1d3s9V2i0P1kE4' })
  @IsString()
  @Length(1, 200)
  challenge: string;

  @ApiProperty({
    description: "base64 RSA-PSS signature (SHA-256, MGF1-SHA-256, salt length 32 or maximum) of the challenge's UTF-8 bytes",
    example: 'kV3n…Q==',
  })
  @IsString()
  @Length(1, 2048)
  signature: string;
}

export class VerifiedDto {
  @ApiProperty({ example: true })
  verified: boolean;
}

export class CredentialsDto {
  @ApiProperty({ example: '0b9e4c52-8a1d-4f7e-9a3b-5c2d1e0f4a67' })
  keyId: string;
  @ApiProperty({ description: 'client_id, RSA-OAEP (SHA-256, MGF1-SHA-256) encrypted with the key, base64', example: 'Wm9vYmFy…' })
  encryptedClientId: string;
  @ApiProperty({
    description: 'A new client_secret (the previous one stops working), RSA-OAEP SHA-256 encrypted, base64',
    example: 'QmF6cXV4…',
  })
  encryptedClientSecret: string;
}

export class KeyDto {
  @ApiProperty({ example: '0b9e4c52-8a1d-4f7e-9a3b-5c2d1e0f4a67' })
  keyId: string;
  @ApiProperty({ example: '7d1c2a0e-5c1f-4f63-9c55-1f0b7f8a9e10' })
  tenantId: string;
  @ApiProperty({ enum: ['UNVERIFIED', 'VERIFIED', 'REVOKED'], example: 'VERIFIED' })
  status: string;
  @ApiProperty({ description: 'SHA-256 of the SPKI DER, hex', example: '3f2a…e1' })
  fingerprint: string;
  @ApiProperty({ nullable: true, type: String, example: 'cli_3x9Qm2Jd0aZr7kLw1PqS5bVh' })
  clientId: string | null;
  @ApiProperty({ example: '2026-11-20T12:00:00.000Z' })
  createdAt: string;
  @ApiProperty({ nullable: true, type: String, example: '2026-11-20T12:01:00.000Z' })
  verifiedAt: string | null;
  @ApiProperty({ nullable: true, type: String, example: null })
  revokedAt: string | null;
  @ApiProperty({ nullable: true, type: String, example: '2026-11-20T12:02:00.000Z' })
  credentialsIssuedAt: string | null;
}
