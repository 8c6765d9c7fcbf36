import { ValidationPipe } from '@nestjs/common';
import { getMetadataStorage, ValidationTypes, ValidatorOptions } from 'class-validator';
import type { ValidationMetadata } from 'class-validator/types/metadata/ValidationMetadata';
import type { ConstraintMetadata } from 'class-validator/types/metadata/ConstraintMetadata';

type Storage = ReturnType<typeof getMetadataStorage>;
type Grouped = ReturnType<Storage['groupByPropertyName']>;

interface Rule {
  meta: ValidationMetadata;
  /**
   * The constraint objects, taken from class-validator's container once per plan: its default
   * container finds each one by a linear search of every constraint class on every call (the
   * app has hundreds). This app never swaps the container (`useContainer`).
   */
  validators: ConstraintMetadata['instance'][];
}

interface PropertyPlan {
  name: string;
  conditions: ValidationMetadata[];
  defined: Rule[];
  custom: Rule[];
  nested: ValidationMetadata[];
}

/** A class's rules sorted the way class-validator's executor sorts them; null: a rule kind this check does not know. */
type Plan = { allowed: Set<string>; properties: PropertyPlan[] } | null;

const KNOWN = new Set<string>([
  ValidationTypes.CUSTOM_VALIDATION,
  ValidationTypes.NESTED_VALIDATION,
  ValidationTypes.CONDITIONAL_VALIDATION,
  ValidationTypes.IS_DEFINED,
  ValidationTypes.WHITELIST,
]);

/**
 * Answers, without building a single error, whether class-validator's `validate(object, options)`
 * would find nothing wrong; on `false` the caller runs class-validator for its errors. It walks
 * the same rules the executor walks (the storage's own lookups, with the same arguments), calls
 * the same constraint functions with the same arguments, and follows the executor's order: the
 * whitelist, then per property the conditions (`IsOptional`, `ValidateIf`), `IsDefined`, the
 * other constraints, the nested objects (an array's items, a Set's, a Map's values). Anything it
 * is not sure of says `false`: a promise from a constraint, a promise rule, a rule kind it does
 * not know, an error thrown, or options it does not follow (groups, `always`, the skip options,
 * a whitelist that strips instead of refusing). So a `true` is always class-validator's verdict,
 * and the valid request, the common one, skips the executor's work (a `ValidationError` per
 * property checked, the rules filtered again per property, the promise per call).
 */
export class ValidationAcceptance {
  private readonly plans = new WeakMap<Grouped, Plan>();

  constructor(private readonly storage: Storage = getMetadataStorage()) {}

  passes(object: unknown, options: ValidatorOptions | undefined): boolean {
    const o = options ?? {};
    if (
      o.groups?.length ||
      o.always ||
      o.strictGroups ||
      o.skipMissingProperties ||
      o.skipNullProperties ||
      o.skipUndefinedProperties ||
      (o.whitelist && !o.forbidNonWhitelisted)
    ) {
      return false;
    }
    try {
      return this.object(object as Record<string, unknown>, undefined, o);
    } catch {
      return false;
    }
  }

  /** The executor's `execute`. */
  private object(object: Record<string, unknown>, schema: string | undefined, o: ValidatorOptions): boolean {
    const metadatas = this.storage.getTargetValidationMetadatas(object.constructor, schema as string, false, false, undefined);
    const forbidUnknownValues = o.forbidUnknownValues !== false;
    if (forbidUnknownValues && !metadatas.length) return false;
    const plan = this.plan(this.storage.groupByPropertyName(metadatas));
    if (!plan) return false;
    if (o.whitelist) for (const key of Object.keys(object)) if (!plan.allowed.has(key)) return false;
    for (const p of plan.properties) if (!this.property(object, object[p.name], p, o)) return false;
    return true;
  }

  /** The executor's `performValidations`. */
  private property(object: Record<string, unknown>, value: unknown, p: PropertyPlan, o: ValidatorOptions): boolean {
    let canValidate = true;
    for (const c of p.conditions) canValidate = canValidate && (c.constraints[0](object, value) as boolean);
    if (!canValidate) return true;
    return this.rules(object, value, p.defined) && this.rules(object, value, p.custom) && this.nested(value, p.nested, o);
  }

  /** The executor's `customValidations`. */
  private rules(object: Record<string, unknown>, value: unknown, rules: Rule[]): boolean {
    for (const { meta, validators } of rules) {
      if (meta.validateIf && !meta.validateIf(object, value)) continue;
      for (const c of validators) {
        const args = {
          targetName: object.constructor ? object.constructor.name : undefined,
          property: meta.propertyName,
          object,
          value,
          constraints: meta.constraints,
        };
        if (!(meta.each && (Array.isArray(value) || value instanceof Set || value instanceof Map))) {
          if (!accepted(c.validate(value, args as never))) return false;
          continue;
        }
        const items = value instanceof Map ? Array.from(value.values()) : Array.isArray(value) ? value : Array.from(value as Set<unknown>);
        for (const item of items) if (!accepted(c.validate(item, args as never))) return false;
      }
    }
    return true;
  }

  /** The executor's `nestedValidations`. */
  private nested(value: unknown, metas: ValidationMetadata[], o: ValidatorOptions): boolean {
    if (value === undefined) return true;
    for (const meta of metas) {
      if (Array.isArray(value) || value instanceof Set || value instanceof Map) {
        let ok = true;
        (value instanceof Set ? Array.from(value) : value).forEach((item: unknown) => {
          ok = ok && this.nested(item, metas, o);
        });
        if (!ok) return false;
      } else if (value instanceof Object) {
        const schema = typeof meta.target === 'string' ? meta.target : meta.target.name;
        if (!this.object(value as Record<string, unknown>, schema, o)) return false;
      } else {
        return false;
      }
    }
    return true;
  }

  private plan(grouped: Grouped): Plan {
    let plan = this.plans.get(grouped);
    if (plan !== undefined) return plan;
    plan = { allowed: new Set(), properties: [] };
    for (const [name, metas] of Object.entries(grouped)) {
      if (metas.length) plan.allowed.add(name);
      if (metas.some((m) => !KNOWN.has(m.type))) {
        plan = null;
        break;
      }
      const rule = (m: ValidationMetadata): Rule => ({
        meta: m,
        validators: this.storage.getTargetValidatorConstraints(m.constraintCls).map((c) => c.instance),
      });
      plan.properties.push({
        name,
        conditions: metas.filter((m) => m.type === ValidationTypes.CONDITIONAL_VALIDATION),
        defined: metas.filter((m) => m.type === ValidationTypes.IS_DEFINED).map(rule),
        custom: metas.filter((m) => m.type === ValidationTypes.CUSTOM_VALIDATION).map(rule),
        nested: metas.filter((m) => m.type === ValidationTypes.NESTED_VALIDATION),
      });
    }
    this.plans.set(grouped, plan);
    return plan;
  }
}

/** A constraint's answer that class-validator would count as passed at once (a promise is left to it). */
function accepted(ok: unknown): boolean {
  return !!ok && !(typeof ok === 'object' && typeof (ok as { then?: unknown }).then === 'function');
}

/**
 * Nest's ValidationPipe (transformation, error factory, every option as configured) whose
 * validation step asks {@link ValidationAcceptance} first and runs class-validator only when
 * that cannot say the object is valid: the errors, and so the 400s, are class-validator's own.
 */
export class AcceptingValidationPipe extends ValidationPipe {
  private readonly acceptance = new ValidationAcceptance();

  protected override validate(object: object, options?: ValidatorOptions) {
    return this.acceptance.passes(object, options) ? [] : super.validate(object, options);
  }
}
