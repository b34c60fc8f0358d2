
BYJ*KVpPЃTщХBV­WЎФyVРМ[U~УT?U™Ф[V4M±TљХЩUшVЈФ