import { ApiProperty } from '@nestjs/swagger';

export class TokenRequestDto {
  @ApiProperty({ enum: ['client_credentials'], example: 'client_credentials' })
  grant_type: string;
  @ApiProperty({ description: 'Or send it with HTTP Basic', example: 'cli_3x9Qm2Jd0aZr7kLw1PqS5bVh' })
  client_id: string;
  @ApiProperty({ description: 'Or send it with HTTP Basic', example: 'sec_…' })
  client_secret: string;
}

export class TokenDto {
  @ApiProperty({
    description: 'HS256 JWT; claims iss, sub (client_id), tenant, kid (keyId), iat, exp, jti',
    example: 'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCIsImtpZCI6ImsxIn0.eyJ…',
  })
  access_token: string;
  @ApiProperty({ enum: ['Bearer'], example: 'Bearer' })
  token_type: 'Bearer';
  @ApiProperty({ example: 3600 })
  expires_in: number;
}

export class OAuthErrorDto {
  @ApiProperty({ example: 401 })
  statusCode: number;
  @ApiProperty({ enum: ['invalid_request', 'invalid_client', 'unsupported_grant_type'], example: 'invalid_client' })
  error: string;
  @ApiProperty({ example: 'Client authentication failed' })
  error_description: string;
  @ApiProperty({ example: 'Client authentication failed' })
  message: string;
  @ApiProperty({ example: 'b3c1f1a2-0d7e-4a53-9a55-3c0e2f7f8b11' })
  requestId: string;
}
