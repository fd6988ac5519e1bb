// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// @title ERC20: the ERC-20 core shared by the devnet's tokens (Token, TaxToken).
/// @notice Supply, balances, allowances, approve/transfer/transferFrom and the Transfer/Approval events.
///         Metadata (name, symbol, decimals) belongs to the inheriting contract. Not compiled into artifacts.
/// @dev The core is as permissive as Uniswap V2's LP token: transfers to the zero address are allowed, and an
///      insufficient balance or allowance fails through checked arithmetic (Panic 0x11). A contract that wants
///      stricter rules or reason strings overrides _transfer / _spendAllowance, checks, and calls super.
///      Storage, the same in every inheriting contract: totalSupply (slot 0), balanceOf (slot 1), allowance (slot 2).
abstract contract ERC20 {
    uint256 public totalSupply;
    mapping(address => uint256) public balanceOf;
    mapping(address => mapping(address => uint256)) public allowance;

    event Transfer(address indexed from, address indexed to, uint256 value);
    event Approval(address indexed owner, address indexed spender, uint256 value);

    function approve(address spender, uint256 value) external returns (bool) {
        allowance[msg.sender][spender] = value;
        emit Approval(msg.sender, spender, value);
        return true;
    }

    function transfer(address to, uint256 value) external returns (bool) {
        _transfer(msg.sender, to, value);
        return true;
    }

    /// @dev An allowance of type(uint256).max is never decreased.
    function transferFrom(address from, address to, uint256 value) external returns (bool) {
        _spendAllowance(from, msg.sender, value);
        _transfer(from, to, value);
        return true;
    }

    function _spendAllowance(address holder, address spender, uint256 value) internal virtual {
        uint256 allowed = allowance[holder][spender];
        if (allowed != type(uint256).max) {
            allowance[holder][spender] = allowed - value;
        }
    }

    function _transfer(address from, address to, uint256 value) internal virtual {
        balanceOf[from] -= value;
        unchecked {
            balanceOf[to] += value; // cannot overflow: the sum of all balances is totalSupply
        }
        emit Transfer(from, to, value);
    }

    function _mint(address to, uint256 value) internal virtual {
        totalSupply += value;
        unchecked {
            balanceOf[to] += value; // cannot overflow: bounded by totalSupply
        }
        emit Transfer(address(0), to, value);
    }

    function _burn(address from, uint256 value) internal virtual {
        balanceOf[from] -= value;
        unchecked {
            totalSupply -= value; // cannot underflow: totalSupply is at least from's balance
        }
        emit Transfer(from, address(0), value);
    }
}
