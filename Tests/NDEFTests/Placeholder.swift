import NDEF
import Testing
