"""One JSON object from a model, in the shape a schema fixes, through each provider's own mechanism.

Anthropic: a single tool whose input_schema is the schema, forced with tool_choice {"type":
"tool"}; the answer is the tool_use block's input. OpenAI: response_format json_schema with
strict true; the answer is the message content, parsed. Both are then validated again here (a
pydantic model), because a schema constrains decoding, not meaning.

Failures after the SDK's own retries: throttling, 5xx, timeouts become TransientError (via
clients.provider_errors); a refusal, a reply cut off at the token limit, a missing tool call, or
JSON that does not parse or validate becomes UnusableOutput (a ProviderError) naming what was
wrong; other HTTP refusals (400, 401, 404) stay plain ProviderError.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

from pydantic import BaseModel, ValidationError

from certiq.adapters.llm.clients import provider_errors
from certiq.errors import ProviderError

if TYPE_CHECKING:
    import anthropic
    import openai

Output = TypeVar("Output", bound=BaseModel)


class UnusableOutput(ProviderError):
    """The provider answered, but not with the object asked for: a refusal, a reply cut off, no
    tool call, or JSON that does not parse or validate. (HTTP refusals such as 400 or 401 stay
    plain ProviderError: they are configuration to fix, not an answer to judge.)"""


class StructuredModel(Protocol):
    @property
    def name(self) -> str:
        """provider:model, recorded on what the model produced."""
        ...

    def ask(self, action: str, system: str, prompt: str, output: type[Output]) -> Output:
        """The model's answer to prompt as an ``output`` instance; raises TransientError or
        ProviderError (see the module docstring)."""
        ...


def strict_schema(output: type[BaseModel]) -> dict[str, Any]:
    """The JSON schema both providers accept in strict mode: every property required, no others,
    and no keywords strict mode rejects (bounds are checked by the pydantic model instead)."""
    schema = output.model_json_schema()
    properties = {
        name: {key: value for key, value in spec.items() if key in {"type", "enum", "items"}}
        for name, spec in schema["properties"].items()
    }
    return {
        "type": "object",
        "properties": properties,
        "required": list(properties),
        "additionalProperties": False,
    }


def _validated(output: type[Output], data: object, source: str) -> Output:
    try:
        return output.model_validate(data)
    except ValidationError as error:
        problems = "; ".join(
            f"{'.'.join(str(p) for p in e['loc']) or 'output'}: {e['msg']}" for e in error.errors()
        )
        raise UnusableOutput(f"{source}: malformed output ({problems})") from error


class AnthropicStructured:
    def __init__(self, client: anthropic.Anthropic, model: str, max_tokens: int) -> None:
        self._client = client
        self._model = model
        self._max_tokens = max_tokens

    @property
    def name(self) -> str:
        return f"anthropic:{self._model}"

    def ask(self, action: str, system: str, prompt: str, output: type[Output]) -> Output:
        tool = output.__name__.lower()
        with provider_errors("anthropic", action):
            message = self._client.messages.create(
                model=self._model,
                max_tokens=self._max_tokens,
                system=system,
                messages=[{"role": "user", "content": prompt}],
                tools=[
                    {
                        "name": tool,
                        "description": (output.__doc__ or tool).strip(),
                        "input_schema": strict_schema(output),
                    }
                ],
                tool_choice={"type": "tool", "name": tool},
            )
        source = f"anthropic {action}"
        if message.stop_reason == "refusal":
            raise UnusableOutput(f"{source}: the model refused")
        if message.stop_reason == "max_tokens":
            raise UnusableOutput(f"{source}: the reply was cut off at max_tokens")
        calls = [block for block in message.content if block.type == "tool_use"]
        if not calls or calls[0].name != tool:
            raise UnusableOutput(f"{source}: no {tool} tool call in the reply")
        return _validated(output, calls[0].input, source)


class OpenAIStructured:
    def __init__(self, client: openai.OpenAI, model: str, max_tokens: int) -> None:
        self._client = client
        self._model = model
        self._max_tokens = max_tokens

    @property
    def name(self) -> str:
        return f"openai:{self._model}"

    def ask(self, action: str, system: str, prompt: str, output: type[Output]) -> Output:
        with provider_errors("openai", action):
            completion = self._client.chat.completions.create(
                model=self._model,
                max_completion_tokens=self._max_tokens,
                temperature=0.0,
                messages=[
                    {"role": "system", "content": system},
                    {"role": "user", "content": prompt},
                ],
                response_format={
                    "type": "json_schema",
                    "json_schema": {
                        "name": output.__name__.lower(),
                        "strict": True,
                        "schema": strict_schema(output),
                    },
                },
            )
        source = f"openai {action}"
        if not completion.choices:
            raise UnusableOutput(f"{source}: the reply has no choices")
        choice = completion.choices[0]
        if choice.message.refusal:
            raise UnusableOutput(f"{source}: the model refused ({choice.message.refusal})")
        if choice.finish_reason == "length":
            raise UnusableOutput(f"{source}: the reply was cut off at the token limit")
        if not choice.message.content:
            raise UnusableOutput(f"{source}: the reply is empty")
        try:
            data = json.loads(choice.message.content)
        except json.JSONDecodeError as error:
            raise UnusableOutput(f"{source}: malformed output (not JSON: {error})") from error
        return _validated(output, data, source)
